// SPDX-License-Identifier: MIT
// The bpf engine end to end: the built dtrace(1) with -x engine=bpf on this
// kernel, checked against real activity (a workload run with -c, files it
// opens, CPUs kept busy) and, where the user engine can run the same
// program, against the user engine's output byte for byte.
#include "cli_support.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace {

using dt::test::result;
using namespace dt::test::bpf_cli;

const char *workload()
{
	return DT_BPF_WORKLOAD;
}

// Every CPU spinning while alive: an idle vCPU of this VM (Firecracker)
// gets few cpu-clock samples, for bpftrace as for us.
class busy_cpus {
public:
	busy_cpus()
	{
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		for (long c = 0; c < n; c++)
			threads_.emplace_back([this, c] {
				cpu_set_t set;
				CPU_ZERO(&set);
				CPU_SET(static_cast<int>(c), &set);
				(void)sched_setaffinity(0, sizeof(set), &set);
				while (!stop_.load(std::memory_order_relaxed)) {
				}
			});
	}
	~busy_cpus()
	{
		stop_ = true;
		for (std::thread &t : threads_)
			t.join();
	}
	busy_cpus(const busy_cpus &) = delete;
	busy_cpus &operator=(const busy_cpus &) = delete;

private:
	std::atomic<bool> stop_{false};
	std::vector<std::thread> threads_;
};

// "  key   value" lines of a printa()/default aggregation output.
std::map<std::string, long> keyed_counts(const std::string &out)
{
	std::map<std::string, long> m;
	std::regex line(R"(^\s*(\S+)\s+(-?\d+)\s*$)");
	for (const std::string &l : dt::test::lines(out)) {
		std::smatch sm;
		if (std::regex_match(l, sm, line))
			m[sm[1]] = std::stol(sm[2]);
	}
	return m;
}

// A distribution's "value  ---- count" rows: value -> count, the value as
// printed ("< 1" for llquantize's underflow row).
std::map<std::string, long> distribution(const std::string &out)
{
	std::map<std::string, long> m;
	std::regex row(R"(^\s*((?:< |>= )?-?\d+) \|[@ ]*\s+(\d+)\s*$)");
	for (const std::string &l : dt::test::lines(out)) {
		std::smatch sm;
		if (std::regex_match(l, sm, row))
			m[sm[1]] = std::stol(sm[2]);
	}
	return m;
}

long last_number(const std::string &out)
{
	std::regex num(R"((-?\d+)\s*$)");
	long v = -1;
	for (const std::string &l : dt::test::lines(out)) {
		std::smatch sm;
		if (std::regex_search(l, sm, num))
			v = std::stol(sm[1]);
	}
	return v;
}

TEST(bpf_cli, begin_trace_exit_is_the_user_engines_output)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-n", "BEGIN { trace(1); exit(0); }"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "dtrace: description 'BEGIN ' matched 1 probe\n");
	expect_same_as_user({"-n", "BEGIN { trace(1); exit(0); }"});
	expect_same_as_user({"-qn", "BEGIN { printf(\"%d %s\\n\", 42, \"hello\"); exit(0); }"});
	expect_same_as_user({"-n", "BEGIN { exit(0); } END { trace(2); }"});
	expect_same_as_user({"-qn",
			     "BEGIN { @a[\"x\"] = count(); @b[\"y\"] = sum(5); @q = quantize(7); "
			     "@m = min(-3); @M = max(9); exit(0); }"});
}

TEST(bpf_cli, bad_pointer_in_begin_reports_dtraces_error)
{
	REQUIRE_BPF();
	std::string prog = "BEGIN { trace(*(int *)0); } BEGIN { exit(0); }";
	result r = dtrace({"-x", "engine=bpf", "-n", prog});
	EXPECT_NE(r.err.find("dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): "
			     "invalid address (0x0) in action #1"),
		  std::string::npos)
		<< r.err;
	EXPECT_EQ(r.status, 0);
	expect_same_as_user({"-n", prog});
}

TEST(bpf_cli, getppid_entries_are_counted)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-q", "-n",
			   "syscall::getppid:entry /pid == $target/ { @ = count(); }", "-c",
			   std::string(workload()) + " getppid 1000"});
	EXPECT_EQ(r.status, 0) << r.err;
	long n = last_number(r.out);
	EXPECT_GE(n, 1000) << r.out << r.err;
	EXPECT_LE(n, 1010) << r.out;
}

TEST(bpf_cli, syscall_entries_of_the_target_by_probefunc)
{
	REQUIRE_BPF();
	// evaltime=exec: the command is held just after exec, so that the
	// dynamic linker's system calls are traced too.
	result r = dtrace({"-x", "engine=bpf", "-x", "evaltime=exec", "-q", "-n",
			   "syscall:::entry /pid == $target/ { @[probefunc] = count(); }", "-c",
			   std::string(workload()) + " getppid 7"});
	EXPECT_EQ(r.status, 0) << r.err;
	auto m = keyed_counts(r.out);
	EXPECT_EQ(m["getppid"], 7) << r.out;
	EXPECT_GE(m["exit_group"], 1) << r.out;
	EXPECT_GE(m["mmap"] + m["openat"] + m["brk"], 1) << r.out;
}

TEST(bpf_cli, openat_path_through_copyinstr)
{
	REQUIRE_BPF();
	auto dir = std::filesystem::temp_directory_path() /
		   ("dt-bpf-open-" + std::to_string(getpid()));
	std::filesystem::create_directories(dir);
	std::string path = (dir / "known-file.txt").string();
	std::ofstream(path) << "x\n";
	result r = dtrace({"-x", "engine=bpf", "-q", "-n",
			   "syscall::openat:entry /pid == $target/ { printf(\"%s\\n\", "
			   "copyinstr(arg1)); }",
			   "-c", std::string(workload()) + " open " + path});
	std::filesystem::remove_all(dir);
	EXPECT_EQ(r.status, 0) << r.err;
	auto ls = dt::test::lines(r.out);
	EXPECT_NE(std::find(ls.begin(), ls.end(), path), ls.end()) << r.out << r.err;
}

// A few system calls enabled (the shared raw tracepoints with the early
// filter, or each probe on its own tracepoint: attach.hpp
// k_own_points_max); with every return enabled too, the sys_exit raw
// tracepoint unfiltered. The same answers.
TEST(bpf_cli, return_value_and_errno_with_few_calls_enabled_and_with_all)
{
	REQUIRE_BPF();
	const std::string path = "/nonexistent-dt-bpf-" + std::to_string(getpid());
	const std::string clause =
		"syscall::openat:entry /pid == $target/ { self->p = arg1; } "
		"syscall::openat:return /pid == $target && self->p/ { printf(\"%s %d %d %d\\n\", "
		"copyinstr(self->p), arg0 == arg1, (int)arg0, errno); self->p = 0; }";
	for (const std::string &extra : {std::string(), std::string(" syscall:::return /0/ { }")}) {
		result r = dtrace({"-x", "engine=bpf", "-q", "-n", clause + extra, "-c",
				   std::string(workload()) + " open " + path});
		EXPECT_EQ(r.status, 0) << r.err;
		auto ls = dt::test::lines(r.out);
		EXPECT_NE(std::find(ls.begin(), ls.end(), path + " 1 -2 2"), ls.end())
			<< (extra.empty() ? "few calls: " : "every return: ") << r.out << r.err;
	}
}

TEST(bpf_cli, read_returns_of_cat_in_a_quantize)
{
	REQUIRE_BPF();
	auto dir = std::filesystem::temp_directory_path() /
		   ("dt-bpf-read-" + std::to_string(getpid()));
	std::filesystem::create_directories(dir);
	std::string path = (dir / "thousand.txt").string();
	std::ofstream(path) << std::string(1000, 'a');
	result r = dtrace({"-x", "engine=bpf", "-q", "-n",
			   "syscall::read:return /execname == \"cat\"/ { @ = quantize(arg0); }",
			   "-c", "/bin/cat -v " + path}); // -v: read(2), not copy_file_range(2)
	std::filesystem::remove_all(dir);
	EXPECT_EQ(r.status, 0) << r.err;
	auto d = distribution(r.out);
	EXPECT_GE(d["512"], 1) << "the 1000-byte read" << r.out << r.err;
	EXPECT_GE(d["0"], 1) << "the read at end of file" << r.out;
}

TEST(bpf_cli, tick_llquantize_then_exit)
{
	REQUIRE_BPF();
	busy_cpus busy;
	result r =
		dtrace({"-x", "engine=bpf", "-q", "-n",
			"tick-1ms { @ = llquantize(i++, 10, 0, 6, 20); } tick-100ms { exit(0); }"});
	EXPECT_EQ(r.status, 0) << r.err;
	auto d = distribution(r.out);
	long total = 0;
	for (auto [v, n] : d)
		total += n;
	EXPECT_GE(total, 50) << r.out << r.err;
	EXPECT_LE(total, 200) << r.out;
	// i = 0 .. n-1: one in each of "< 1" and 1 .. 9, five per 10 .. 95.
	EXPECT_EQ(d["< 1"], 1) << r.out;
	for (int v = 1; v < 10; v++)
		EXPECT_EQ(d[std::to_string(v)], 1) << v << "\n" << r.out;
	EXPECT_EQ(d["10"], 5) << r.out;
}

TEST(bpf_cli, profile_fires_on_every_cpu)
{
	REQUIRE_BPF();
	busy_cpus busy;
	// The CPU column of the default output says where each firing ran.
	result r = dtrace(
		{"-x", "engine=bpf", "-n", "profile-997 { trace(1); } tick-500ms { exit(0); }"});
	EXPECT_EQ(r.status, 0) << r.err;
	std::map<std::string, long> per_cpu;
	std::regex line(R"(^\s*(\d+)\s+\d+\s+:profile-997\s+1\s*$)");
	for (const std::string &l : dt::test::lines(r.out)) {
		std::smatch sm;
		if (std::regex_match(l, sm, line))
			per_cpu[sm[1]]++;
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	// 997 Hz for 500 ms: about 500 a CPU.
	for (long c = 0; c < n; c++)
		EXPECT_GE(per_cpu[std::to_string(c)], 250) << "CPU " << c << "\n" << r.err;
}

TEST(bpf_cli, exit_in_a_probe_then_end_once)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-q", "-n",
			   "syscall::getppid:entry /pid == $target/ { exit(3); } "
			   "END { printf(\"end\\n\"); }",
			   "-c", std::string(workload()) + " getppid 5"});
	EXPECT_EQ(r.status, 3) << r.err;
	// dtrace(1) ends the output with a newline once tracing stops (the
	// golden cases' .r files; the user engine prints the same).
	EXPECT_EQ(r.out, "end\n\n");
}

// DTRACE_DEBUG=1 says which engine runs and why (-v prints DTrace's
// stability report instead).
TEST(bpf_cli, debug_says_which_engine_runs)
{
	REQUIRE_BPF();
	const std::map<std::string, std::string> debug = {{"DTRACE_DEBUG", "1"}};
	result b =
		dt::test::run({dt::test::dtrace_bin(), "-n", "syscall::getppid:entry { exit(0); }",
			       "-c", std::string(workload()) + " getppid 1"},
			      debug);
	EXPECT_NE(b.err.find("dtrace: engine bpf ("), std::string::npos) << b.err;
	result u = dt::test::run({dt::test::dtrace_bin(), "-n", "BEGIN { exit(0); }"}, debug);
	EXPECT_NE(u.err.find("dtrace: engine user ("), std::string::npos) << u.err;
}

TEST(bpf_cli, without_privileges_dtrace_says_so)
{
	REQUIRE_BPF();
	std::ifstream sysctl("/proc/sys/kernel/unprivileged_bpf_disabled");
	int disabled = 0;
	sysctl >> disabled;
	if (disabled == 0)
		GTEST_SKIP() << "unprivileged bpf() is allowed here";
	if (access("/usr/bin/setpriv", X_OK) != 0)
		GTEST_SKIP() << "no setpriv to drop privileges";
	auto unprivileged = [](std::vector<std::string> args) {
		std::vector<std::string> argv{"/usr/bin/setpriv", "--reuid=65534",
					      "--regid=65534",	  "--clear-groups",
					      "--inh-caps=-all",  dt::test::dtrace_bin()};
		argv.insert(argv.end(), args.begin(), args.end());
		return dt::test::run(argv);
	};
	// A build tree uid 65534 cannot enter (a private checkout) leaves
	// nothing to run: the loader fails (127) before dtrace starts.
	if (unprivileged({"-V"}).status == 127)
		GTEST_SKIP() << "uid 65534 cannot run " << dt::test::dtrace_bin()
			     << " (the build tree is not readable by others)";
	// Asked for, and chosen because a probe needs a kernel engine.
	for (const result &r : {unprivileged({"-x", "engine=bpf", "-n", "BEGIN { exit(0); }"}),
				unprivileged({"-n", "profile-97 { exit(0); }"})}) {
		EXPECT_EQ(r.status, 1);
		// (Before it, plugins may warn that they see nothing without root.)
		auto ls = dt::test::lines(r.err);
		ASSERT_FALSE(ls.empty());
		EXPECT_EQ(ls.back(), "dtrace: failed to initialize dtrace: DTrace requires "
				     "additional privileges")
			<< r.err;
	}
	// The user engine needs none.
	result u = unprivileged({"-qn", "BEGIN { printf(\"%d\\n\", 7); exit(0); }"});
	EXPECT_EQ(u.status, 0) << u.err;
	EXPECT_EQ(u.out, "7\n\n");
}

TEST(bpf_cli, main_command_counts_syscalls_by_execname)
{
	REQUIRE_BPF();
	// The README's command (shorter): chosen automatically, every
	// syscall:::entry attached at once; dtrace's own polling is traced.
	auto t0 = std::chrono::steady_clock::now();
	result r = dtrace(
		{"-n", "syscall:::entry { @[execname] = count(); } tick-300ms { exit(0); }"});
	double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
			    .count();
	EXPECT_EQ(r.status, 0) << r.err;
	std::smatch sm;
	ASSERT_TRUE(std::regex_search(
		r.err, sm, std::regex(R"(description 'syscall:::entry ' matched (\d+) probes)")))
		<< r.err;
	EXPECT_GE(std::stol(sm[1]), 300);
	EXPECT_GE(keyed_counts(r.out)["dtrace"], 1) << r.out;
	EXPECT_LT(ms, 5000) << "attach and detach of every syscall probe";
	std::printf("syscall:::entry (%s probes) + tick-300ms: %.0f ms\n", sm[1].str().c_str(), ms);
}

TEST(bpf_cli, drops_are_reported_and_add_up_to_the_firings)
{
	REQUIRE_BPF();
	// A one-page buffer cannot hold 100000 firings between drains.
	const long n = 100000;
	result r = dtrace({"-x", "engine=bpf", "-x", "bufsize=4k", "-q", "-n",
			   "syscall::getppid:entry /pid == $target/ { printf(\"%d\\n\", 1); }",
			   "-c", std::string(workload()) + " getppid " + std::to_string(n)});
	EXPECT_EQ(r.status, 0) << r.err;
	long printed = 0, dropped = 0;
	for (const std::string &l : dt::test::lines(r.out))
		printed += l == "1" ? 1 : 0;
	std::regex drop(R"(^dtrace: (\d+) drops? on CPU \d+$)");
	for (const std::string &l : dt::test::lines(r.err)) {
		std::smatch sm;
		if (std::regex_match(l, sm, drop))
			dropped += std::stol(sm[1]);
	}
	EXPECT_GT(dropped, 0) << r.err;
	EXPECT_GT(printed, 0);
	EXPECT_EQ(printed + dropped, n) << "printed " << printed << ", dropped " << dropped;
}

TEST(bpf_cli, error_clauses_and_the_fault_message_as_on_the_user_engine)
{
	REQUIRE_BPF();
	expect_same_as_user({"-n",
			     "BEGIN { trace(*(int *)0); } "
			     "ERROR { printf(\"err %d %d\\n\", arg1, arg4); } BEGIN { exit(0); }"});
}

TEST(bpf_cli, a_hundred_clauses_with_a_quantize_each_load)
{
	REQUIRE_BPF();
	// The Oracle port failed on this (issue 5): one program per probe holds
	// every clause, and a program may use at most 64 maps.
	std::string prog;
	for (int i = 0; i < 100; i++)
		prog += "syscall::getppid:entry /pid == $target/ { @q" + std::to_string(i) +
			" = quantize(" + std::to_string(i) + "); } ";
	result r = dtrace({"-x", "engine=bpf", "-q", "-n", prog, "-c",
			   std::string(workload()) + " getppid 3"});
	EXPECT_EQ(r.status, 0) << r.err;
	// The first distribution printed is @q0's: 3 in bucket 0 (a map of
	// every row would mix the hundred distributions).
	size_t second = r.out.find("Distribution", r.out.find("Distribution") + 1);
	auto d = distribution(r.out.substr(0, second));
	EXPECT_EQ(d["0"], 3) << r.out.substr(0, 2000);
	long rows = 0;
	for (const std::string &l : dt::test::lines(r.out))
		rows += l.find("Distribution") != std::string::npos ? 1 : 0;
	EXPECT_EQ(rows, 100);
}

// proc provider (plugins/proc): raw tracepoints, some filtered by a raw
// argument (plugin.h ABI 1.2), on the workload's real processes.
TEST(bpf_cli, proc_exec_success_of_the_target)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-q", "-n",
			   "proc:::exec-success /pid == $target/ { printf(\"%s\\n\", execname); }",
			   // The command is held after its own exec (illumos Pcreate()):
			   // the exec seen is env's of the workload, in the same process.
			   "-c", "/usr/bin/env " + std::string(workload()) + " getppid 1"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "dt_bpf_workload\n\n") << r.err;
}

TEST(bpf_cli, proc_create_and_exit_of_the_targets_children)
{
	REQUIRE_BPF();
	// create: task_newtask without CLONE_THREAD; exit: sched_process_exit
	// of a group's last thread. Both filtered by a raw argument.
	result r = dtrace({"-x", "engine=bpf", "-q", "-n",
			   "proc:::create /pid == $target/ { @c = count(); } "
			   "proc:::exit /ppid == $target/ { @e = count(); } "
			   "proc:::lwp-create /pid == $target/ { @l = count(); } "
			   "END { printa(\"create %@d\\n\", @c); printa(\"exit %@d\\n\", @e); "
			   "printa(\"lwp %@d\\n\", @l); }",
			   "-c", std::string(workload()) + " fork 4"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("create 4\n"), std::string::npos) << r.out << r.err;
	EXPECT_NE(r.out.find("exit 4\n"), std::string::npos) << r.out << r.err;
	EXPECT_EQ(r.out.find("lwp "), std::string::npos) << "no threads were made\n" << r.out;
}

TEST(bpf_cli, proc_signal_send_of_a_kill)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-q", "-n",
			   "proc:::signal-send /pid == $target && args[2] == 9/ "
			   "{ printf(\"sig %d\\n\", args[2]); }",
			   "-c", std::string(workload()) + " kill 9"});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "sig 9\n\n") << r.err;
}

TEST(bpf_cli, begin_exit_wall_time)
{
	REQUIRE_BPF();
	// Reported, not asserted (issue 5: target under 50 ms).
	double best = 1e9;
	for (int i = 0; i < 5; i++) {
		auto t0 = std::chrono::steady_clock::now();
		result r = dtrace({"-x", "engine=bpf", "-n", "BEGIN { exit(0); }"});
		auto t1 = std::chrono::steady_clock::now();
		ASSERT_EQ(r.status, 0) << r.err;
		best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
	}
	RecordProperty("begin_exit_ms", std::to_string(best));
	std::printf("dtrace -x engine=bpf -n 'BEGIN { exit(0); }': best of 5 %.1f ms\n", best);
}

} // namespace

// proc:::exec-success with curpsinfo->pr_psargs: the command line, as
// DTrace shows it (procfs.d translates it with copyinargs()).
TEST(bpf_cli, exec_success_shows_the_command_line)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-q", "-n",
			   "proc:::exec-success /pid == $target/ { printf(\"[%s] [%s]\\n\", "
			   "curpsinfo->pr_psargs, curpsinfo->pr_fname); }",
			   "-c", "/usr/bin/env /bin/echo one two  three"});
	EXPECT_EQ(r.status, 0) << r.err;
	auto ls = dt::test::lines(r.out);
	EXPECT_NE(std::find(ls.begin(), ls.end(), "[/bin/echo one two three] [echo]"), ls.end())
		<< r.out << r.err;
}

// Option cpu (dtrace(1M) -x cpu=N): only that CPU's events fire, whatever
// the probe (profile-N's per-CPU timers, tick-N, system calls), and BEGIN
// and END run there too.
TEST(bpf_cli, option_cpu_fires_probes_on_that_cpu_only)
{
	REQUIRE_BPF();
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 2)
		GTEST_SKIP() << "one CPU: nothing to leave out";
	busy_cpus busy;
	const std::string want = std::to_string(n - 1);
	result r =
		dtrace({"-x", "engine=bpf", "-x", "cpu=" + want, "-q", "-n",
			"BEGIN { printf(\"BEGIN %d\\n\", cpu); } "
			"profile-997 { @p[cpu] = count(); } "
			"syscall:::entry { @s[cpu] = count(); } "
			"tick-300ms { printf(\"tick %d\\n\", cpu); exit(0); } "
			"END { printf(\"END %d\\n\", cpu); "
			"printa(\"profile %d %@d\\n\", @p); printa(\"syscall %d %@d\\n\", @s); }"});
	EXPECT_EQ(r.status, 0) << r.err;
	std::regex line(R"(^(BEGIN|tick|END|profile|syscall) (\d+)( \d+)?$)");
	std::set<std::string> seen;
	for (const std::string &l : dt::test::lines(r.out)) {
		std::smatch sm;
		if (!std::regex_match(l, sm, line))
			continue;
		EXPECT_EQ(sm[2], want) << l << "\n" << r.out;
		seen.insert(sm[1]);
	}
	// profile-997 for 300 ms on a busy CPU; system calls there, if any,
	// were checked above.
	seen.erase("syscall");
	EXPECT_EQ(seen, (std::set<std::string>{"BEGIN", "tick", "END", "profile"})) << r.out;
}

// A CPU that is not online is refused ("could not enable tracing"), before
// any probe attaches, as on the user engine.
TEST(bpf_cli, option_cpu_of_no_online_cpu_is_refused)
{
	REQUIRE_BPF();
	result r = dtrace({"-x", "engine=bpf", "-x", "cpu=4095", "-n", "tick-1s { exit(0); }"});
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.err.find("dtrace: "), std::string::npos) << r.err;
}
