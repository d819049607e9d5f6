// SPDX-License-Identifier: MIT
// dtrace -l and -lv: stdout is DTrace's layout alone; which engines can run
// a listed provider here is a note on stderr (only for a provider the
// engine in use cannot enable) and, with -x engines, a table after the
// listing. The notes and the table must agree on every host: the table's
// "no" under the engine in use is exactly when a note is printed.
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

using dt::test::dtrace;

// The -x engines table's row for `prov` ("  fbt  -  no  no bpf"), or "".
std::string table_row(const std::string &out, const std::string &prov)
{
	// %10s %5s %5s %5s %s: the provider right-aligned in ten columns.
	const std::string name = std::string(10 - prov.size(), ' ') + prov + " ";
	for (const std::string &l : dt::test::lines(out))
		if (l.starts_with(name) && l.size() > 29)
			return l;
	return "";
}

TEST(ListEngines, VerboseListingIsDTracesLayoutOnly)
{
	auto r = dtrace({"-lv", "-n", "dtrace:::BEGIN"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(r.out.find("Engines"), std::string::npos) << r.out;
	EXPECT_TRUE(r.out.ends_with("\tArgument Types\n\t\tNone\n\n")) << r.out;
}

TEST(ListEngines, TableFollowsTheListingOnRequest)
{
	auto plain = dtrace({"-lv", "-n", "dtrace:::BEGIN,profile:::tick-1sec"});
	auto r = dtrace({"-lv", "-x", "engines", "-n", "dtrace:::BEGIN,profile:::tick-1sec"});
	ASSERT_EQ(r.status, 0) << r.err;
	ASSERT_TRUE(r.out.starts_with(plain.out)) << r.out;
	std::string table = r.out.substr(plain.out.size());
	EXPECT_TRUE(table.starts_with("\n  PROVIDER  USER   BPF  KMOD ENGINE\n")) << table;
	// Both run in dtrace's own process: the user engine is used.
	EXPECT_TRUE(table_row(table, "dtrace").starts_with("    dtrace   yes ")) << table;
	EXPECT_TRUE(table_row(table, "dtrace").ends_with(" user")) << table;
	EXPECT_TRUE(table_row(table, "profile").ends_with(" user")) << table;
}

// fbt: on a kernel without kprobes (our CI host) the bpf engine cannot
// enable it and a note says so; where it can, nothing is said.
TEST(ListEngines, NoteAgreesWithTheTable)
{
	auto r = dtrace({"-l", "-x", "engines", "-n", "fbt::vfs_read:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::string row = table_row(r.out, "fbt");
	ASSERT_FALSE(row.empty()) << r.out;
	std::string engine = row.substr(row.rfind(' ') + 1);
	if (engine == "none" || !dt::test::is_root()) {
		EXPECT_EQ(r.err, "");
		return;
	}
	const std::string cell = engine == "bpf" ? row.substr(17, 5) : row.substr(23, 5);
	if (cell.find("yes") != std::string::npos) {
		EXPECT_EQ(r.err, "");
		return;
	}
	const std::string head =
		"dtrace: fbt probes cannot be enabled on the " + engine + " engine here: ";
	ASSERT_TRUE(r.err.starts_with(head)) << r.err;
	// The reason is the table's for that engine.
	size_t at = r.out.find("\nfbt: " + engine + ": ");
	ASSERT_NE(at, std::string::npos) << r.out;
	std::string why = r.out.substr(at + 8 + engine.size());
	why = why.substr(0, why.find('\n'));
	EXPECT_EQ(r.err.compare(head.size(), why.size(), why), 0) << r.err << "\n" << why;
	EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

} // namespace
