// SPDX-License-Identifier: MIT
// pid probes firing on the bpf engine, through dtrace(1), against
// dt_pid_calls (pid_calls.c), whose calls are known: entry probes count
// exactly the calls made with each argument; return probes give the real
// return values (arg1; arg0 is 0, plugin.h DT_BPF_CTX_REGS_RETURN);
// instruction-offset probes fire with the argument registers; a library
// function (libc's getpid) is probed in the process; -c holds the command
// until the probes are in place (main:entry fires); -p follows a running
// process and no other process running the same program; ustack() names
// the probed function; -x evaltime=exec holds the command before the
// dynamic linker runs; and -c failures are reported in DTrace's words.
#include "child_process.hpp"
#include "cli_support.hpp"
#include "target_process.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace {

using dt::test::background_dtrace;
using dt::test::child;
using dt::test::bpf_cli::dtrace;
using dt::test::pid::objdump;

const std::string k_calls = DT_PID_CALLS;

using dt::test::bpf_cli::bpf;

// "K V" lines into a map (printa("%d %@d\n", @)).
std::map<long, long> pairs(const std::string &out)
{
	std::map<long, long> m;
	std::istringstream in(out);
	long k, v;
	while (in >> k >> v)
		m[k] = v;
	return m;
}

TEST(PidRuntime, EntryCountsTheCallsWithEachArgument)
{
	REQUIRE_BPF();
	auto r = dtrace(bpf({"-n", "pid$target::dt_pid_calls_square:entry { @[arg0] = count(); }",
			     "-n", "END { printa(\"%d %@d\\n\", @); }", "-c", k_calls + " 6"}));
	ASSERT_EQ(r.status, 0) << r.err;
	std::map<long, long> want;
	for (long i = 0; i < 6; i++)
		want[i] = i + 1;
	EXPECT_EQ(pairs(r.out), want) << r.out;
}

TEST(PidRuntime, EntryArgumentsAreTheFunctionsArguments)
{
	REQUIRE_BPF();
	auto r = dtrace(bpf({"-n",
			     "pid$target::dt_pid_calls_pair:entry { printf(\"%s %s %s %d %d\\n\", "
			     "probemod, probefunc, probename, arg0, arg1); }",
			     "-c", k_calls + " 3"}));
	ASSERT_EQ(r.status, 0) << r.err;
	std::string base = std::filesystem::path(k_calls).filename().string();
	EXPECT_EQ(r.out, base + " dt_pid_calls_pair entry 0 100\n" + base +
				 " dt_pid_calls_pair entry 1 101\n" + base +
				 " dt_pid_calls_pair entry 2 102\n\n");
}

// Arguments past the sixth were passed on the stack, above the return
// address: an entry probe reads them there (illumos fasttrap does too).
TEST(PidRuntime, EntryArgumentsPastTheSixthComeFromTheStack)
{
	REQUIRE_BPF();
	auto r = dtrace(bpf({"-n",
			     "pid$target::dt_pid_calls_ten:entry { printf(\"%d %d %d %d %d %d %d "
			     "%d %d %d\\n\", arg0, arg1, arg2, arg3, arg4, arg5, arg6, arg7, "
			     "arg8, arg9); }",
			     "-c", k_calls + " 1"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "0 1 2 3 4 5 6 7 8 9\n\n");
}

// The aggregation is printed after the command has exited: its frames
// still resolve, from the mappings read while it ran (illumos keeps the
// grabbed process's symbol tables).
TEST(PidRuntime, UstackOfAnExitedCommandStillResolves)
{
	REQUIRE_BPF();
	auto r = dtrace(
		bpf({"-qn", "pid$target::dt_pid_calls_square:entry { @[ustack(1)] = count(); }",
		     "-c", k_calls + " 3"}));
	ASSERT_EQ(r.status, 0) << r.err;
	std::string base = std::filesystem::path(k_calls).filename().string();
	EXPECT_NE(r.out.find("\n              " + base + "`dt_pid_calls_square\n"),
		  std::string::npos)
		<< r.out;
	EXPECT_EQ(r.out.find("0x"), std::string::npos) << r.out;
}

TEST(PidRuntime, ReturnGivesTheReturnValue)
{
	REQUIRE_BPF();
	auto r = dtrace(
		bpf({"-n", "pid$target::dt_pid_calls_square:return { @[(long)arg1] = count(); }",
		     "-n", "pid$target::dt_pid_calls_pair:return { @[(long)arg1] = count(); }",
		     "-n", "pid$target::dt_pid_calls_pair:return /arg0 != 0/ { @[-1] = count(); }",
		     "-n", "END { printa(\"%d %@d\\n\", @); }", "-c", k_calls + " 4"}));
	ASSERT_EQ(r.status, 0) << r.err;
	// square(i) = i*i + 1, i+1 times each; pair(i, 100 + i) = -100, 4 times.
	std::map<long, long> want = {{1, 1}, {2, 2}, {5, 3}, {10, 4}, {-100, 4}};
	EXPECT_EQ(pairs(r.out), want) << r.out;
}

TEST(PidRuntime, InstructionOffsetProbeFiresWithTheArgumentRegisters)
{
	REQUIRE_BPF();
	auto f = objdump(k_calls, "dt_pid_calls_pair");
	ASSERT_GE(f.insns.size(), 2u) << "objdump found no instructions";
	char off[32];
	std::snprintf(off, sizeof(off), "%llx", static_cast<unsigned long long>(f.insns[1].first));
	// The second instruction: the arguments are still in their registers
	// (a - b computes in the return register).
	auto r = dtrace(bpf({"-n",
			     std::string("pid$target::dt_pid_calls_pair:") + off +
				     " { printf(\"%s %d %d\\n\", probename, arg0, arg1); }",
			     "-c", k_calls + " 2"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, std::string(off) + " 0 100\n" + off + " 1 101\n\n");
}

TEST(PidRuntime, LibraryFunctionInTheProcess)
{
	REQUIRE_BPF();
	auto r = dtrace(bpf({"-n", "pid$target:libc.so.6:getpid:entry { @ = count(); }", "-n",
			     "END { printa(\"%@d\\n\", @); }", "-c", k_calls}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "5\n\n");
}

// Every function of libc: thousands of uprobes, on kernels with
// uprobe_multi (6.6) one link per kind for the whole object, each
// function told by its attach cookie; elsewhere one uprobe each. Either
// way getpid's calls are counted exactly, entry and return alike, and no
// descriptor runs out.
TEST(PidRuntime, EveryFunctionOfALibrary)
{
	REQUIRE_BPF();
	// "": as dtrace chooses; "0": one uprobe each (then over a smaller
	// glob of libc's functions, to keep the test short).
	for (std::string multi : {"", "0"}) {
		std::map<std::string, std::string> env{{"DTRACE_DEBUG", "1"}};
		if (!multi.empty())
			env["DTRACE_BPF_UPROBE_MULTI"] = multi;
		std::string fn = multi.empty() ? "" : "getp*";
		std::vector<std::string> argv{"/usr/bin/timeout",
					      "120",
					      "/usr/bin/taskset",
					      "-c",
					      dt::test::bpf_cli::lowest_cpu(),
					      dt::test::dtrace_bin()};
		for (const std::string &a :
		     bpf({"-n",
			  "pid$target:libc.so.6:" + fn + ":entry { @e[probefunc] = count(); }",
			  "-n",
			  "pid$target:libc.so.6:" + fn + ":return { @r[probefunc] = count(); }",
			  "-n", "END { printa(\"e %s %@d\\n\", @e); printa(\"r %s %@d\\n\", @r); }",
			  "-c", k_calls}))
			argv.push_back(a);
		auto r = dt::test::run(argv, env);
		ASSERT_EQ(r.status, 0) << multi << ": " << r.err;
		EXPECT_NE(r.out.find("e getpid 5\n"), std::string::npos) << r.out;
		EXPECT_NE(r.out.find("r getpid 5\n"), std::string::npos) << r.out;
		size_t lines = 0;
		for (char c : r.out)
			lines += c == '\n' ? 1 : 0;
		// Whole libc: its start-up and exit calls besides getpid.
		EXPECT_TRUE(!multi.empty() || lines > 6) << r.out;
		bool linked = r.err.find(" uprobe_multi links") != std::string::npos;
		if (multi.empty())
			EXPECT_TRUE(linked || r.err.find("no uprobe_multi") != std::string::npos)
				<< r.err;
		else
			EXPECT_FALSE(linked) << r.err;
	}
}

// ucaller is the caller of the current user frame: illumos returns
// ustack[2] of dtrace_getupcstack() (after the pid and the pc), the frame
// printed on ustack()'s second line.
TEST(PidRuntime, UcallerIsTheSecondFrameOfUstack)
{
	REQUIRE_BPF();
	child target({DT_PID_CALLS_FP, "-w"});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	background_dtrace d(
		{"-p", std::to_string(target.pid), "-n",
		 "pid$target::dt_pid_calls_square:entry { ustack(2); printf(\"ucaller \"); "
		 "ufunc(ucaller); printf(\"\\n\"); exit(0); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	target.send("A");
	int status = -1;
	std::string out = d.finish(status); // the target is still running
	EXPECT_EQ(status, 0);
	std::vector<std::string> frames;
	std::string ucaller;
	std::istringstream in(out.substr(out.find("begun\n") + 6));
	for (std::string l; std::getline(in, l);) {
		std::string w;
		std::istringstream(l) >> w;
		if (w.empty())
			continue;
		if (w == "ucaller")
			std::istringstream(l.substr(l.find("ucaller") + 7)) >> ucaller;
		else
			frames.push_back(w.substr(0, w.find("+0x")));
	}
	ASSERT_EQ(frames.size(), 2u) << out;
	EXPECT_NE(frames[0].find("`dt_pid_calls_square"), std::string::npos) << out;
	EXPECT_EQ(ucaller, frames[1]) << out;
	EXPECT_NE(ucaller, frames[0]) << out;
	// At the entry the frame pointer chain does not hold the caller yet;
	// as illumos' entry probes, it is taken from the stack pointer.
	EXPECT_NE(ucaller.find("`wait_mode"), std::string::npos) << out;
}

// ustack() at an entry probe: the function, then its direct caller (the
// return address at the stack pointer), then the frame pointer chain;
// ustackdepth counts the caller too. ustackdepth is the frame-pointer
// walk's depth (docs/ustack.md), so the stack is too: ustackbytes=0 (the
// default CFI unwind also goes on through libc, which has no frame pointers).
TEST(PidRuntime, UstackAtEntryHasTheCallerAndDepthCountsIt)
{
	REQUIRE_BPF();
	child target({DT_PID_CALLS_FP, "-w"});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	background_dtrace d({"-p", std::to_string(target.pid), "-x", "ustackbytes=0", "-qn",
			     "pid$target::dt_pid_calls_square:entry { ustack(); "
			     "printf(\"depth %d\\n\", ustackdepth); exit(0); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	target.send("A");
	int status = -1;
	std::string out = d.finish(status);
	EXPECT_EQ(status, 0);
	std::vector<std::string> frames;
	int depth = -1;
	std::istringstream in(out.substr(out.find("begun\n") + 6));
	for (std::string l; std::getline(in, l);) {
		std::string w;
		std::istringstream(l) >> w;
		if (w == "depth")
			std::istringstream(l.substr(6)) >> depth;
		else if (!w.empty())
			frames.push_back(w);
	}
	ASSERT_GE(frames.size(), 2u) << out;
	EXPECT_EQ(frames[0].substr(frames[0].find('`')), "`dt_pid_calls_square") << out;
	EXPECT_EQ(frames[1].rfind("`wait_mode+0x"), frames[1].find('`')) << out;
	EXPECT_EQ(depth, static_cast<int>(frames.size())) << out;
}

TEST(PidRuntime, CreatedCommandIsHeldUntilTheProbesAreInPlace)
{
	REQUIRE_BPF();
	// main() is the program's first own code after its libraries'
	// initialisation: its entry fires only if nothing ran before tracing.
	auto r = dtrace(bpf({"-n",
			     "pid$target:a.out:main:entry { printf(\"%s`%s\\n\", probemod, "
			     "probefunc); }",
			     "-c", k_calls}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, "a.out`main\n\n");
}

TEST(PidRuntime, EvaltimeSaysWhereTheCommandIsHeld)
{
	REQUIRE_BPF();
	// The dynamic linker opens libc: traced when the command is held at
	// exec, already done when it is held at its entry point (postinit,
	// the default).
	const std::string d = "syscall::openat:entry /pid == $target/ { "
			      "printf(\"%s\\n\", copyinstr(arg1)); }";
	auto at_exec = dtrace(bpf({"-x", "evaltime=exec", "-n", d, "-c", k_calls}));
	ASSERT_EQ(at_exec.status, 0) << at_exec.err;
	EXPECT_NE(at_exec.out.find("libc.so.6\n"), std::string::npos) << at_exec.out;
	for (const char *when : {"postinit", ""}) {
		std::vector<std::string> args{"-n", d, "-c", k_calls};
		if (*when != '\0')
			args.insert(args.begin(), {"-x", std::string("evaltime=") + when});
		auto r = dtrace(bpf(args));
		ASSERT_EQ(r.status, 0) << r.err;
		EXPECT_EQ(r.out.find("libc.so.6"), std::string::npos) << when << ": " << r.out;
	}
	auto bad = dtrace({"-x", "evaltime=later", "-n", "BEGIN", "-c", k_calls});
	EXPECT_EQ(bad.status, 1);
	EXPECT_EQ(bad.err,
		  "dtrace: failed to set -x evaltime: Invalid value for specified option\n");
}

TEST(PidRuntime, GrabbedProcessAndOnlyIt)
{
	REQUIRE_BPF();
	child target({k_calls, "-w"}), other({k_calls, "-w"});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	ASSERT_NE(other.read_until("ready\n").find("ready"), std::string::npos);
	background_dtrace d({"-p", std::to_string(target.pid), "-n",
			     "pid$target::dt_pid_calls_square:entry { @[arg0] = count(); }", "-n",
			     "END { printa(\"%d %@d\\n\", @); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	other.send("xyz");
	target.send("AAB");
	other.close_input();
	EXPECT_EQ(other.wait(), 0);
	target.close_input(); // it exits; dtrace follows
	EXPECT_EQ(target.wait(), 0);
	int status = -1;
	std::string out = d.finish(status);
	EXPECT_EQ(status, 0);
	EXPECT_EQ(pairs(out.substr(out.find("begun\n") + 6)),
		  (std::map<long, long>{{'A', 2}, {'B', 1}}))
		<< out;
}

TEST(PidRuntime, UstackStartsInTheProbedFunction)
{
	REQUIRE_BPF();
	child target({k_calls, "-w"});
	ASSERT_NE(target.read_until("ready\n").find("ready"), std::string::npos);
	background_dtrace d({"-p", std::to_string(target.pid), "-n",
			     "pid$target::dt_pid_calls_square:entry { ustack(); exit(0); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	target.send("A");
	int status = -1;
	std::string out = d.finish(status); // the target is still running
	EXPECT_EQ(status, 0);
	std::string base = std::filesystem::path(k_calls).filename().string();
	EXPECT_NE(out.find("\n              " + base + "`dt_pid_calls_square\n"), std::string::npos)
		<< out;
}

// Is process `pid` gone (or a zombie) within two seconds?
bool ends_soon(long pid)
{
	for (int i = 0; i < 200; i++) {
		std::ifstream st("/proc/" + std::to_string(pid) + "/stat");
		std::string line;
		if (!std::getline(st, line))
			return true;
		auto close = line.rfind(')');
		if (close != std::string::npos && line.compare(close, 3, ") Z") == 0)
			return true;
		usleep(10000);
	}
	return false;
}

TEST(PidRuntime, HeldCommandDiesWithAFailedDtrace)
{
	auto r = dtrace(
		{"-n", "pid$target::dt_pid_calls_no_such_function:entry", "-c", "/bin/sleep 60"});
	EXPECT_EQ(r.status, 1);
	std::smatch m;
	ASSERT_TRUE(std::regex_search(r.err, m,
				      std::regex("probe description pid(\\d+)::dt_pid_calls_no_"
						 "such_function:entry does not match any probes")))
		<< r.err;
	EXPECT_TRUE(ends_soon(std::stol(m[1]))) << "the held command outlived dtrace";
}

TEST(PidRuntime, CommandThatIsNoProgramIsReported)
{
	char tmpl[] = "/tmp/dt-pid-XXXXXX";
	int fd = mkstemp(tmpl);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, "not a program\n", 14), 14);
	close(fd);
	chmod(tmpl, 0755);
	auto r = dtrace({"-n", "BEGIN", "-c", tmpl});
	unlink(tmpl);
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err,
		  std::string("dtrace: failed to execute ") + tmpl + ": cannot execute file\n");
}

} // namespace
