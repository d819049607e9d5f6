// SPDX-License-Identifier: MIT
// The fbt provider through dtrace(1) on this machine. The expected probe
// set is computed here, independently of the plugin, from the same source
// the plugin prefers (available_filter_functions if readable, else
// /proc/kallsyms) with the same naming rules. Needs root.
#include "listing.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using dt::test::arg_types;
using dt::test::dtrace;
using dt::test::lines;

namespace {

using func_set = std::set<std::pair<std::string, std::string>>; // mod, func

#define REQUIRE_ROOT()                                                          \
	do {                                                                    \
		if (!dt::test::is_root())                                       \
			GTEST_SKIP() << "needs root (kallsyms addresses, BTF)"; \
	} while (0)

bool probeable(const std::string &mod, const std::string &func)
{
	static const std::regex bad(R"(^(__pfx_|__cfi_|__ftrace_invalid_address__).*|.*\..*)");
	return !std::regex_match(func, bad) && mod != "bpf" && mod.rfind("__builtin__", 0) != 0;
}

std::set<std::string> blacklist()
{
	std::set<std::string> s;
	std::ifstream in("/sys/kernel/debug/kprobes/blacklist");
	std::string range, name;
	while (in >> range >> name) {
		s.insert(name);
		in.ignore(1 << 20, '\n');
	}
	return s;
}

// The (module, function) pairs fbt should list.
func_set expected_functions()
{
	func_set out;
	std::set<std::string> bl = blacklist();
	auto add = [&](const std::string &func, std::string mod) {
		if (mod.empty())
			mod = "vmlinux";
		else
			mod = mod.substr(1, mod.size() - 2); // [mod]
		if (probeable(mod, func) && !bl.count(func))
			out.emplace(mod, func);
	};
	std::ifstream aff("/sys/kernel/tracing/available_filter_functions");
	std::string line;
	if (aff && std::getline(aff, line)) {
		do {
			std::istringstream in(line);
			std::string func, mod;
			in >> func >> mod;
			if (!func.empty())
				add(func, mod);
		} while (std::getline(aff, line));
		return out;
	}
	std::ifstream ks("/proc/kallsyms");
	while (std::getline(ks, line)) {
		std::istringstream in(line);
		std::string addr, type, func, mod;
		in >> addr >> type >> func >> mod;
		if (type == "t" || type == "T")
			add(func, mod);
	}
	return out;
}

struct row {
	std::string mod, func, name;
	auto operator<=>(const row &) const = default;
};

std::vector<row> listing(const std::string &out)
{
	std::vector<row> rows;
	auto ls = lines(out);
	for (size_t i = 1; i < ls.size(); i++) {
		std::istringstream in(ls[i]);
		std::string id, prov, mod, func, name, extra;
		in >> id >> prov >> mod >> func >> name;
		EXPECT_EQ(prov, "fbt") << ls[i];
		EXPECT_FALSE(in >> extra) << ls[i];
		rows.push_back({mod, func, name});
	}
	return rows;
}

} // namespace

TEST(FbtCli, ListsEntryAndReturnForEveryTraceableFunction)
{
	REQUIRE_ROOT();
	func_set want = expected_functions();
	ASSERT_GT(want.size(), 10000u) << "implausibly few kernel functions";
	auto r = dtrace({"-l", "-P", "fbt"});
	ASSERT_EQ(r.status, 0) << r.err;
	// Nothing on stderr but, where this kernel cannot run fbt on the bpf
	// engine (no kprobes, no trampolines), the one note that says so.
	const bool one_note =
		r.err.rfind("dtrace: fbt probes cannot be enabled on the bpf engine here: ", 0) ==
			0 &&
		std::count(r.err.begin(), r.err.end(), '\n') == 1;
	EXPECT_TRUE(r.err.empty() || one_note) << r.err;
	auto rows = listing(r.out);
	EXPECT_EQ(rows.size(), 2 * want.size());
	std::set<row> got(rows.begin(), rows.end());
	EXPECT_EQ(got.size(), rows.size()) << "a probe is listed twice";
	std::set<row> expect;
	for (const auto &[mod, func] : want) {
		expect.insert({mod, func, "entry"});
		expect.insert({mod, func, "return"});
	}
	// Compare without printing 100k-element sets on failure.
	std::vector<row> missing, extra;
	std::set_difference(expect.begin(), expect.end(), got.begin(), got.end(),
			    std::back_inserter(missing));
	std::set_difference(got.begin(), got.end(), expect.begin(), expect.end(),
			    std::back_inserter(extra));
	EXPECT_TRUE(missing.empty()) << missing.size() << " missing, e.g. fbt:" << missing[0].mod
				     << ":" << missing[0].func << ":" << missing[0].name;
	EXPECT_TRUE(extra.empty()) << extra.size() << " unexpected, e.g. fbt:" << extra[0].mod
				   << ":" << extra[0].func << ":" << extra[0].name;
}

TEST(FbtCli, VfsReadEntryIsInVmlinux)
{
	REQUIRE_ROOT();
	auto r = dtrace({"-l", "-n", "fbt::vfs_read:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(listing(r.out), (std::vector<row>{{"vmlinux", "vfs_read", "entry"}}));
	r = dtrace({"-l", "-f", "vfs_read"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto rows = listing(r.out);
	EXPECT_NE(std::find(rows.begin(), rows.end(), row{"vmlinux", "vfs_read", "return"}),
		  rows.end());
}

TEST(FbtCli, VfsReadArgsComeFromBtf)
{
	REQUIRE_ROOT();
	auto r = dtrace({"-lv", "-n", "fbt::vfs_read:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	// ssize_t vfs_read(struct file *file, char __user *buf, size_t count, loff_t *pos)
	EXPECT_EQ(arg_types(r.out),
		  (std::vector<std::string>{"struct file *", "char *", "size_t", "loff_t *"}));
	EXPECT_NE(r.out.find("\tArgument Attributes\n"
			     "\t\tIdentifier Names: Private\n"
			     "\t\tData Semantics:   Private\n"
			     "\t\tDependency Class: ISA\n"),
		  std::string::npos)
		<< r.out;

	r = dtrace({"-lv", "-n", "fbt::vfs_read:return"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(arg_types(r.out), (std::vector<std::string>{"int", "ssize_t"}));
}

TEST(FbtCli, ConstPointersAndVoidReturns)
{
	REQUIRE_ROOT();
	// do_sys_openat2(int dfd, const char __user *filename, struct open_how *how)
	// (its return type has changed between kernels, so only the entry).
	auto r = dtrace({"-lv", "-n", "fbt::do_sys_openat2:entry"});
	if (r.status != 0)
		GTEST_SKIP() << "do_sys_openat2 is not traceable here: " << r.err;
	EXPECT_EQ(arg_types(r.out),
		  (std::vector<std::string>{"int", "const char *", "struct open_how *"}));
	// void kfree(const void *): the return probe has only the offset.
	r = dtrace({"-lv", "-n", "fbt::kfree:return"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(arg_types(r.out), (std::vector<std::string>{"int"}));
}

TEST(FbtCli, ModuleAndFunctionGlob)
{
	REQUIRE_ROOT();
	std::set<row> want;
	for (const auto &[mod, func] : expected_functions())
		if (mod == "vmlinux" && func.rfind("vfs_", 0) == 0)
			want.insert({mod, func, "entry"});
	ASSERT_GT(want.size(), 5u);
	auto r = dtrace({"-l", "-n", "fbt:vmlinux:vfs_*:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto rows = listing(r.out);
	EXPECT_EQ(rows.size(), want.size());
	EXPECT_EQ(std::set<row>(rows.begin(), rows.end()), want);
}

TEST(FbtCli, PrefixStubsAreNotProbes)
{
	REQUIRE_ROOT();
	auto r = dtrace({"-l", "-n", "fbt::__pfx_vfs_read:entry"});
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.err, "dtrace: failed to match fbt::__pfx_vfs_read:entry: "
			 "No probe matches description\n");
	r = dtrace({"-l", "-n", "fbt::*.cold:entry"});
	EXPECT_EQ(r.err,
		  "dtrace: failed to match fbt::*.cold:entry: No probe matches description\n")
		<< r.out;
}

TEST(FbtCli, WholeListingIncludesEveryFbtProbe)
{
	REQUIRE_ROOT();
	auto fbt = dtrace({"-l", "-P", "fbt"});
	ASSERT_EQ(fbt.status, 0) << fbt.err;
	auto all = dtrace({"-l"});
	ASSERT_EQ(all.status, 0) << all.err;
	size_t fbt_rows = 0;
	for (const auto &l : lines(all.out)) {
		std::istringstream in(l);
		std::string id, prov;
		in >> id >> prov;
		fbt_rows += prov == "fbt";
	}
	EXPECT_EQ(fbt_rows, lines(fbt.out).size() - 1);
}
