// SPDX-License-Identifier: MIT
// The sdt provider through dtrace(1) on this machine (bpf engine, root):
// the listing mirrors <tracefs>/available_events, -lv shows each event's
// fields with their types, and probes fire against real activity with
// the arguments the kernel recorded (sched_switch's pids and comms, the
// file a process opens, the program a process execs).
#include "listing.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using dt::test::arg_types;
using dt::test::dtrace;
using dt::test::lines;

namespace {

const fs::path k_tracefs = "/sys/kernel/tracing";

#define REQUIRE_TRACEFS()                                               \
	do {                                                            \
		if (!dt::test::is_root())                               \
			GTEST_SKIP() << "needs root to read tracefs";   \
		std::error_code ec_;                                    \
		if (!fs::exists(k_tracefs / "available_events", ec_))   \
			GTEST_SKIP() << k_tracefs << " is not mounted"; \
	} while (0)

// "group:event" of available_events whose group satisfies `keep`.
template <typename F>
std::set<std::string> available(F keep)
{
	std::set<std::string> s;
	std::ifstream in(k_tracefs / "available_events");
	for (std::string l; std::getline(in, l);)
		if (auto c = l.find(':'); c != std::string::npos && keep(l.substr(0, c)))
			s.insert(l);
	return s;
}

// "mod:name" of the probe lines of a -l listing (ID PROVIDER MODULE NAME:
// sdt probes have no function).
std::set<std::string> listed(const std::string &out, size_t *rows = nullptr)
{
	std::set<std::string> s;
	auto ls = lines(out);
	size_t n = 0;
	for (size_t i = 1; i < ls.size(); i++) {
		std::istringstream in(ls[i]);
		std::string id, prov, mod, name;
		in >> id >> prov >> mod >> name;
		EXPECT_EQ(prov, "sdt") << ls[i];
		s.insert(mod + ":" + name);
		n++;
	}
	if (rows)
		*rows = n;
	return s;
}

TEST(sdt_cli, listing_is_available_events)
{
	REQUIRE_TRACEFS();
	dt::test::result r = dtrace({"-l", "-P", "sdt"});
	ASSERT_EQ(r.status, 0) << r.err;
	size_t rows = 0;
	std::set<std::string> got = listed(r.out, &rows);
	std::set<std::string> want = available([](const std::string &) { return true; });
	EXPECT_GT(want.size(), 100u);
	EXPECT_EQ(rows, want.size());
	EXPECT_EQ(got, want);
}

TEST(sdt_cli, group_globs_and_bare_event_names)
{
	REQUIRE_TRACEFS();
	dt::test::result r = dtrace({"-l", "-n", "sdt:sched::"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(listed(r.out), available([](const std::string &g) { return g == "sched"; }));
	r = dtrace({"-l", "-n", "sdt:sch*::"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(listed(r.out),
		  available([](const std::string &g) { return g.starts_with("sch"); }));
	// The event's name alone, with and without the provider.
	for (const char *d : {"sdt:::sched_switch", "sched_switch", "sdt:sched::sched_switch"}) {
		r = dtrace({"-l", "-n", d});
		ASSERT_EQ(r.status, 0) << d << ": " << r.err;
		EXPECT_EQ(listed(r.out), std::set<std::string>{"sched:sched_switch"}) << d;
	}
}

TEST(sdt_cli, verbose_listing_shows_the_format_fields_types)
{
	REQUIRE_TRACEFS();
	dt::test::result r = dtrace({"-lv", "-n", "sdt:::sched_switch"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(arg_types(r.out), (std::vector<std::string>{"string", "pid_t", "int", "long",
							      "string", "pid_t", "int"}));
	r = dtrace({"-lv", "-n", "sdt:syscalls::sys_enter_openat"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(arg_types(r.out),
		  (std::vector<std::string>{"int", "int", "const char *", "int", "umode_t"}));
}

TEST(sdt_cli, unknown_tracepoints_and_fields_are_errors)
{
	REQUIRE_TRACEFS();
	dt::test::result r = dtrace({"-n", "sdt:::no_such_tracepoint { exit(0); }"});
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("dtrace: invalid probe specifier sdt:::no_such_tracepoint { exit(0); "
			     "}: probe description sdt:::no_such_tracepoint does not match any "
			     "probes"),
		  std::string::npos)
		<< r.err;
	r = dtrace({"-n", "sdt:nosuchgroup::sched_switch { exit(0); }"});
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("does not match any probes"), std::string::npos) << r.err;
	r = dtrace({"-x", "errtags", "-n",
		    "sdt:sched::sched_switch { trace(args->no_such_field); exit(0); }"});
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("[D_TYPE_MEMBER]"), std::string::npos) << r.err;
	EXPECT_NE(r.err.find("no_such_field is not an argument of sdt:sched::sched_switch"),
		  std::string::npos)
		<< r.err;
}

// sched_switch, on the CPU a known process leaves and the one it comes
// back to: args->prev_pid and args[1] are that process's pid, the
// process switched out is the one running (pid, execname), and
// next_pid/next_comm name it when it is switched in.
TEST(sdt_cli, sched_switch_names_the_pids_switched)
{
	REQUIRE_TRACEFS();
	dt::test::result r =
		dtrace({"-q", "-n",
			"BEGIN { printf(\"target %d\\n\", $target); }"
			"sdt:sched::sched_switch /args->prev_pid == $target/ {"
			"  printf(\"prev %d %d %d %s %s\\n\", args->prev_pid, args[1], pid,"
			"    stringof(args->prev_comm), execname); }"
			"sdt:::sched_switch /args->next_pid == $target/ {"
			"  printf(\"next %d %s\\n\", args->next_pid, args->next_comm); }",
			"-c", "/bin/sleep 0.3"});
	ASSERT_EQ(r.status, 0) << r.err;
	int target = -1, prevs = 0, nexts = 0;
	for (const std::string &l : lines(r.out)) {
		std::istringstream in(l);
		std::string what;
		in >> what;
		if (what == "target") {
			in >> target;
		} else if (what == "prev") {
			int prev_pid, arg1, p;
			std::string comm, exec;
			in >> prev_pid >> arg1 >> p >> comm >> exec;
			EXPECT_EQ(prev_pid, target) << l;
			EXPECT_EQ(arg1, target) << l;
			EXPECT_EQ(p, target) << l;
			EXPECT_EQ(comm, exec) << l;
			prevs++;
		} else if (what == "next") {
			int next_pid;
			std::string comm;
			in >> next_pid >> comm;
			EXPECT_EQ(next_pid, target) << l;
			EXPECT_TRUE(comm == "sleep" || comm == "dtrace") << l;
			nexts++;
		}
	}
	EXPECT_GT(target, 0) << r.out;
	EXPECT_GT(prevs, 0) << r.out;
	EXPECT_GT(nexts, 0) << r.out;
}

// The file a process opens, through syscalls:sys_enter_openat's
// filename (a user pointer: copyinstr), and the program a process execs,
// through sched_process_exec's __data_loc filename (in the record).
TEST(sdt_cli, strings_from_user_pointers_and_data_loc_fields)
{
	REQUIRE_TRACEFS();
	std::string file = "/tmp/dt-sdt-open-" + std::to_string(getpid());
	std::string script = file + ".sh";
	std::ofstream(file) << "x\n";
	std::ofstream(script) << "/bin/cat " << file << " >/dev/null\n/bin/true\n";
	dt::test::result r =
		dtrace({"-q", "-n",
			"sdt:syscalls::sys_enter_openat /pid == $target || ppid == $target/ {"
			"  printf(\"open %s\\n\", copyinstr(args->filename)); }"
			"sdt:sched::sched_process_exec /ppid == $target || pid == $target/ {"
			"  printf(\"exec %s %d\\n\", args->filename, args->pid == pid); }",
			"-c", "/bin/sh " + script});
	fs::remove(file);
	fs::remove(script);
	ASSERT_EQ(r.status, 0) << r.err;
	bool opened = false, execd = false;
	for (const std::string &l : lines(r.out)) {
		opened = opened || l == "open " + file;
		execd = execd || l == "exec /bin/cat 1";
	}
	EXPECT_TRUE(opened) << r.out;
	EXPECT_TRUE(execd) << r.out;
}

// A group glob enables every event it names, and they fire.
TEST(sdt_cli, group_glob_fires)
{
	REQUIRE_TRACEFS();
	dt::test::result r = dtrace(
		{"-q", "-n",
		 "sdt:sch*::sched_sw*,sdt:sched::sched_process_e* { @[probename] = count(); }"
		 "END { printa(\"%s %@d\\n\", @); }",
		 "-c", "/bin/sleep 0.2"});
	ASSERT_EQ(r.status, 0) << r.err;
	std::set<std::string> fired;
	for (const std::string &l : lines(r.out))
		if (!l.empty())
			fired.insert(l.substr(0, l.find(' ')));
	EXPECT_TRUE(fired.count("sched_switch")) << r.out;
	EXPECT_TRUE(fired.count("sched_process_exit")) << r.out;
}

} // namespace
