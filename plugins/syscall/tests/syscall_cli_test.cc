// SPDX-License-Identifier: MIT
// The syscall provider through dtrace(1) on this machine: the probe list
// must mirror <tracefs>/events/syscalls exactly, and -lv must show the
// argument types of the events' format files. Needs root (tracefs).
#include "listing.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using dt::test::dtrace;
using dt::test::arg_types;
using dt::test::lines;

namespace {

const fs::path k_syscalls = "/sys/kernel/tracing/events/syscalls";

#define REQUIRE_TRACEFS()                                                      \
	do {                                                                   \
		if (!dt::test::is_root())                                      \
			GTEST_SKIP() << "needs root to read tracefs";          \
		std::error_code ec_;                                           \
		if (!fs::is_directory(k_syscalls, ec_))                        \
			GTEST_SKIP() << k_syscalls << " is absent";            \
	} while (0)

using probe_set = std::set<std::pair<std::string, std::string>>; // func, name

// (func, name) pairs the tracefs directory implies, for functions whose
// name satisfies `keep`.
template <typename F>
probe_set expected_from_tracefs(F keep)
{
	probe_set s;
	for (const auto &e : fs::directory_iterator(k_syscalls)) {
		std::string n = e.path().filename().string();
		if (n.starts_with("sys_enter_") && keep(n.substr(10)))
			s.emplace(n.substr(10), "entry");
		else if (n.starts_with("sys_exit_") && keep(n.substr(9)))
			s.emplace(n.substr(9), "return");
	}
	return s;
}

// The probe lines of a -l listing (header checked and dropped).
std::vector<std::vector<std::string>> listing(const std::string &out)
{
	auto ls = lines(out);
	EXPECT_FALSE(ls.empty());
	std::vector<std::vector<std::string>> rows;
	for (size_t i = 1; i < ls.size(); i++) {
		std::istringstream in(ls[i]);
		std::vector<std::string> f;
		for (std::string w; in >> w;)
			f.push_back(w);
		rows.push_back(f);
	}
	return rows;
}

// Field types after __syscall_nr in a format file, parsed here
// independently of the plugin's parser.
std::vector<std::string> format_types(const fs::path &format)
{
	std::ifstream in(format);
	std::vector<std::string> v;
	bool after = false;
	static const std::regex re(R"(^\s*field:(.*?)\s*(\w+);.*$)");
	for (std::string l; std::getline(in, l);) {
		std::smatch m;
		if (!std::regex_match(l, m, re))
			continue;
		std::string type = m[1];
		while (!type.empty() && type.back() == ' ')
			type.pop_back();
		if (after)
			v.push_back(type);
		else if (m[2] == "__syscall_nr")
			after = true;
	}
	return v;
}

} // namespace

TEST(SyscallCli, ListsOneEntryAndReturnPerTracefsEvent)
{
	REQUIRE_TRACEFS();
	probe_set want = expected_from_tracefs([](const std::string &) { return true; });
	ASSERT_GT(want.size(), 100u);
	auto r = dtrace({"-l", "-P", "syscall"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	probe_set got;
	auto rows = listing(r.out);
	for (const auto &f : rows) {
		ASSERT_EQ(f.size(), 5u);
		EXPECT_EQ(f[1], "syscall");
		EXPECT_EQ(f[2], "vmlinux");
		got.emplace(f[3], f[4]);
	}
	EXPECT_EQ(rows.size(), got.size()) << "a probe is listed twice";
	EXPECT_EQ(got, want);
}

TEST(SyscallCli, OpenatEntryExactLine)
{
	REQUIRE_TRACEFS();
	if (!fs::exists(k_syscalls / "sys_enter_openat"))
		GTEST_SKIP() << "no sys_enter_openat event";
	auto r = dtrace({"-l", "-n", "syscall::openat:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto ls = lines(r.out);
	ASSERT_EQ(ls.size(), 2u) << r.out;
	EXPECT_EQ(ls[0], "   ID   PROVIDER            MODULE"
			 "                          FUNCTION NAME");
	unsigned id = 0;
	ASSERT_EQ(std::sscanf(ls[1].c_str(), "%u", &id), 1) << ls[1];
	char want[256];
	std::snprintf(want, sizeof(want), "%5u %10s %17s %33s %s", id, "syscall",
		      "vmlinux", "openat", "entry");
	EXPECT_EQ(ls[1], want);
}

TEST(SyscallCli, OpenatEntryArgsFollowTheFormatFile)
{
	REQUIRE_TRACEFS();
	fs::path format = k_syscalls / "sys_enter_openat" / "format";
	if (!fs::exists(format))
		GTEST_SKIP() << "no sys_enter_openat event";
	auto r = dtrace({"-lv", "-n", "syscall::openat:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	auto types = arg_types(r.out);
	EXPECT_EQ(types, format_types(format));
	// openat(2)'s well-known signature, as this kernel's format file has it.
	EXPECT_EQ(types, (std::vector<std::string>{"int", "const char *", "int", "umode_t"}));
	// systrace_attr: the description is as stable as its least stable field.
	EXPECT_NE(r.out.find("\tProbe Description Attributes\n"
			     "\t\tIdentifier Names: Private\n"
			     "\t\tData Semantics:   Private\n"
			     "\t\tDependency Class: Unknown\n"),
		  std::string::npos) << r.out;
	EXPECT_NE(r.out.find("\tArgument Attributes\n"
			     "\t\tIdentifier Names: Private\n"
			     "\t\tData Semantics:   Private\n"
			     "\t\tDependency Class: ISA\n"),
		  std::string::npos) << r.out;
}

TEST(SyscallCli, EveryEntryProbeTypesEachFormatField)
{
	REQUIRE_TRACEFS();
	auto r = dtrace({"-lv", "-n", "syscall::*:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	// Split the listing per probe and compare each with its format file.
	static const std::regex head(R"(^ *\d+ +syscall +vmlinux +(\S+) entry$)");
	std::string func, block;
	size_t checked = 0;
	auto check = [&] {
		if (func.empty())
			return;
		EXPECT_EQ(arg_types(block),
			  format_types(k_syscalls / ("sys_enter_" + func) / "format"))
			<< func;
		checked++;
	};
	for (const auto &l : lines(r.out)) {
		std::smatch m;
		if (std::regex_match(l, m, head)) {
			check();
			func = m[1];
			block.clear();
		} else {
			block += l + "\n";
		}
	}
	check();
	size_t entries = 0;
	for (const auto &[f, n] : expected_from_tracefs([](const std::string &) { return true; }))
		entries += n == "entry";
	EXPECT_EQ(checked, entries);
}

TEST(SyscallCli, ReturnProbesHaveTwoLongArgs)
{
	REQUIRE_TRACEFS();
	if (!fs::exists(k_syscalls / "sys_exit_openat"))
		GTEST_SKIP() << "no sys_exit_openat event";
	auto r = dtrace({"-lv", "-n", "syscall::openat:return"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(arg_types(r.out), (std::vector<std::string>{"long", "long"}));
	r = dtrace({"-lv", "-n", "syscall::read:return"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(arg_types(r.out), (std::vector<std::string>{"long", "long"}));
}

TEST(SyscallCli, GlobSelectsTheOpenFamily)
{
	REQUIRE_TRACEFS();
	probe_set want;
	for (const auto &[f, n] : expected_from_tracefs(
		     [](const std::string &f) { return f.starts_with("open"); }))
		if (n == "entry")
			want.emplace(f, n);
	ASSERT_GE(want.size(), 2u); // open, openat, openat2, open_by_handle_at ...
	auto r = dtrace({"-l", "-n", "syscall::open*:entry"});
	ASSERT_EQ(r.status, 0) << r.err;
	probe_set got;
	for (const auto &f : listing(r.out)) {
		ASSERT_EQ(f.size(), 5u);
		got.emplace(f[3], f[4]);
	}
	EXPECT_EQ(got, want);
}

TEST(SyscallCli, NonexistentSyscallDoesNotMatch)
{
	REQUIRE_TRACEFS();
	// illumos list_stmt(): -l implies -Z; the description is reported.
	auto r = dtrace({"-l", "-n", "syscall::nosuchcall:entry"});
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.err, "dtrace: failed to match syscall::nosuchcall:entry: "
			 "No probe matches description\n");
}
