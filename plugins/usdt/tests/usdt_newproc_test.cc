// SPDX-License-Identifier: MIT
// Probes of processes started after tracing began (docs/usdt.md,
// "Processes started later"): dtrace -Z with a USDT description that names
// no process (nwp*:::hit) runs a program built here with a `dtrace -h`
// header several times (from its BEGIN clause, with system(), as the
// suite's usdt tests do, and from the test). Each run's probes fire
// exactly once per call, with their arguments and with the is-enabled
// test true; a program with no probes runs straight through while dtrace
// watches; a program that was already running when tracing began (not
// grabbed with -p) is neither stopped nor traced.
#include "child_process.hpp"
#include "cli_support.hpp"
#include "usdt_build.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using dt::test::bpf_cli::bpf;
using dt::test::bpf_cli::dtrace;
namespace fs = std::filesystem;

const char *const k_provider = "provider nwp { probe hit(int, char *); probe last(); "
			       "probe work__entry(); probe carpentry(); probe work__return(); };\n";

// argv[1]: the run's number; argv[2] "last": fire nwp:::last at the end;
// "wait": first wait for a byte on standard input. Each of its two hits
// says whether the is-enabled test was true (its semaphore is set).
const char *const k_app = R"(#include "nwp.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int run = argc > 1 ? atoi(argv[1]) : 0;
	if (argc > 2 && strcmp(argv[2], "wait") == 0) {
		char c;
		if (write(1, "ready\n", 6) != 6 || read(0, &c, 1) != 1)
			return 1;
	}
	for (int i = 0; i < 2; i++) {
		volatile char word[4] = "off";
		if (NWP_HIT_ENABLED())
			word[1] = 'n', word[2] = '\0';
		NWP_HIT(run * 10 + i, (char *)word);
	}
	NWP_WORK_ENTRY();
	NWP_CARPENTRY();
	NWP_WORK_RETURN();
	if (argc > 2 && strcmp(argv[2], "last") == 0)
		NWP_LAST();
	return 0;
}
)";

struct newproc_build : dt::test::usdt_build {
	std::string app;

	newproc_build() : usdt_build("dt_usdt_newproc")
	{
		app = dir / "nwp_app";
		write("app.c", k_app);
		if (header("nwp", k_provider))
			cc({dir / "app.c", "-o", app}, "main");
	}
};

const char *const k_hit = "nwp*:::hit { printf(\"%s %s:%s:%s %d %s\\n\", "
			  "probeprov == strjoin(\"nwp\", lltostr(pid)) ? \"nwpPID\" : probeprov, "
			  "probemod, probefunc, probename, arg0, copyinstr(arg1)); }";

TEST(UsdtNewProcess, ProbesFireInProcessesStartedAfterTracingBegan)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	newproc_build b;
	ASSERT_TRUE(b.ok) << b.err;
	const std::string script = (b.dir / "runs.sh").string();
	std::ofstream(script) << b.app << " 1\n/bin/true\n"
			      << b.app << " 2\n/bin/true\n"
			      << b.app << " 3 last\n";
	auto r = dtrace(bpf({"-wZ", "-n", "BEGIN { system(\"/bin/sh " + script + "\"); }", "-n",
			     k_hit, "-n", "nwp*:::last { exit(0); }"}));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(r.out, "nwpPID nwp_app:main:hit 10 on\n"
			 "nwpPID nwp_app:main:hit 11 on\n"
			 "nwpPID nwp_app:main:hit 20 on\n"
			 "nwpPID nwp_app:main:hit 21 on\n"
			 "nwpPID nwp_app:main:hit 30 on\n"
			 "nwpPID nwp_app:main:hit 31 on\n\n");
}

TEST(UsdtNewProcess, OtherProcessesRunOnAndEarlierOnesAreNotTraced)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	newproc_build b;
	ASSERT_TRUE(b.ok) << b.err;
	// Running before tracing begins, and not named with -p.
	dt::test::child early({b.app, "9", "wait"});
	ASSERT_GT(early.pid, 0);
	ASSERT_NE(early.read_until("ready\n").find("ready\n"), std::string::npos);
	dt::test::background_dtrace d({"-Z", "-n", k_hit, "-n", "nwp*:::last { exit(0); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	// Programs without probes: none waits for dtrace more than once
	// (its file is then known to hold none).
	auto t0 = std::chrono::steady_clock::now();
	for (int i = 0; i < 40; i++)
		ASSERT_EQ(dt::test::run({"/usr/bin/timeout", "10", "/bin/true"}).status, 0);
	auto took = std::chrono::steady_clock::now() - t0;
	EXPECT_LT(took, std::chrono::seconds(4));
	early.send("x");
	EXPECT_EQ(early.wait(), 0);
	ASSERT_EQ(dt::test::run({b.app, "4"}).status, 0);
	ASSERT_EQ(dt::test::run({b.app, "5", "last"}).status, 0);
	int status = -1;
	std::string out = d.finish(status);
	EXPECT_EQ(status, 0);
	EXPECT_EQ(out, "begun\n"
		       "nwpPID nwp_app:main:hit 40 on\n"
		       "nwpPID nwp_app:main:hit 41 on\n"
		       "nwpPID nwp_app:main:hit 50 on\n"
		       "nwpPID nwp_app:main:hit 51 on\n\n");
}

// -x engine=auto (the default) takes the bpf engine, which watches for
// new processes, although what matched now (BEGIN) would run on the user
// engine; without -Z nothing is watched and the description is an error.
TEST(UsdtNewProcess, TheDefaultEngineIsOneThatWatches)
{
	REQUIRE_BPF();
	auto r = dt::test::dtrace({"-Z", "-n", "nwp*:::hit", "-n", "BEGIN { exit(0); }"},
				  {{"DTRACE_DEBUG", "1"}});
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.err.find("engine bpf (a description may match probes of processes started "
			     "later)"),
		  std::string::npos)
		<< r.err;
	EXPECT_NE(r.err.find("watching for processes started later"), std::string::npos) << r.err;
	auto z = dtrace({"-n", "nwp*:::hit", "-n", "BEGIN { exit(0); }"});
	EXPECT_EQ(z.status, 1);
	EXPECT_NE(z.err.find("does not match any probes"), std::string::npos) << z.err;
}

// -F: work-entry indents and work-return outdents, as illumos indents any
// probe so named; carpentry is neither.
TEST(UsdtNewProcess, FlowIndentByProbeName)
{
	REQUIRE_BPF();
	REQUIRE_CC();
	newproc_build b;
	ASSERT_TRUE(b.ok) << b.err;
	auto r = dtrace(
		{"-x", "engine=bpf", "-wqZF", "-n",
		 "BEGIN { system(\"" + b.app + " 6 last\"); printf(\"\\n\"); }", "-n",
		 "nwp*:::work-entry, nwp*:::carpentry, nwp*:::work-return { printf(\"\\n\"); }",
		 "-n", "nwp*:::last { printf(\"\\n\"); exit(0); }"});
	ASSERT_EQ(r.status, 0) << r.err;
	// Without the CPU column.
	std::string out;
	for (size_t at = 0; at < r.out.size();) {
		size_t nl = r.out.find('\n', at);
		std::string line = r.out.substr(at, nl - at);
		out += (line.size() > 4 ? line.substr(4) : "") + "\n";
		at = nl == std::string::npos ? r.out.size() : nl + 1;
	}
	EXPECT_EQ(out, "FUNCTION                                 \n"
		       "| :BEGIN                                  \n"
		       " -> main                                  \n"
		       "  | main:carpentry                        \n"
		       " <- main                                  \n"
		       "| main:last                               \n"
		       "\n")
		<< r.out;
}

} // namespace

// A job-control shell on a terminal waits for its foreground command with
// WUNTRACED: a command stopped at exec() would come back to it as
// "Stopped" (status 147) and run on in the background. Commands with a
// controlling terminal that dtrace did not start therefore run on (their
// probes are placed while they run; exec_stop.hpp).
TEST(UsdtNewProcess, AShellOnATerminalSeesItsCommandsRunToTheEnd)
{
	REQUIRE_BPF();
	if (access("/usr/bin/script", X_OK) != 0)
		GTEST_SKIP()
			<< "script(1) (util-linux) is not installed: no terminal to run a shell on";
	dt::test::background_dtrace d(
		{"-Z", "-n", "nwq_nothing*::: { trace(1); }", "-n", "tick-4s { exit(0); }"});
	ASSERT_TRUE(d.begun()) << d.out;
	const fs::path cmds =
		fs::temp_directory_path() / ("usdt_newproc_tty." + std::to_string(getpid()));
	{
		std::ofstream f(cmds);
		f << "set -m\n/usr/bin/env true; echo \"rc=$?\"\n"
		     "/usr/bin/id -u >/dev/null; echo \"rc=$?\"\nexit\n";
	}
	dt::test::result r =
		dt::test::run({"/usr/bin/timeout", "20", "/usr/bin/script", "-qc",
			       "/bin/bash --norc --noprofile -i " + cmds.string(), "/dev/null"});
	fs::remove(cmds);
	EXPECT_NE(r.out.find("rc=0"), std::string::npos) << r.out;
	EXPECT_EQ(r.out.find("rc=147"), std::string::npos) << r.out;
	EXPECT_EQ(r.out.find("Stopped"), std::string::npos) << r.out;
	int status = -1;
	d.finish(status);
	EXPECT_EQ(status, 0);
}
