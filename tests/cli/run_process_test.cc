// SPDX-License-Identifier: MIT
// dtrace(1)'s run path where a golden file cannot show it: -c and -p
// processes (pids differ per run), signals, and #! interpreter files.
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

namespace fs = std::filesystem;
using dt::test::dtrace;

namespace {

struct tmpdir {
	fs::path path;
	tmpdir()
	{
		char tmpl[] = "/tmp/dt-run-XXXXXX";
		path = mkdtemp(tmpl);
	}
	~tmpdir() { fs::remove_all(path); }
};

fs::path write_file(const fs::path &p, const std::string &text, bool exec = false)
{
	std::ofstream(p) << text;
	if (exec)
		chmod(p.c_str(), 0755);
	return p;
}

TEST(run_process, TargetIsThePidOfTheCreatedCommand)
{
	tmpdir d;
	auto sh = write_file(d.path / "pid.sh", "echo child $$\n");
	auto r = dtrace({"-q", "-c", "/bin/sh " + sh.string(), "-n",
			 "BEGIN { printf(\"target %d\\n\", $target); }"});
	EXPECT_EQ(r.status, 0) << r.err;
	std::smatch a, b;
	ASSERT_TRUE(std::regex_search(r.out, a, std::regex("child (\\d+)"))) << r.out;
	ASSERT_TRUE(std::regex_search(r.out, b, std::regex("target (\\d+)"))) << r.out;
	EXPECT_EQ(a[1], b[1]);
}

// dtrace raises its own descriptor limit (a perf event per attached
// probe), but the command it runs gets the limit dtrace was started with.
TEST(run_process, TheCommandKeepsTheDescriptorLimitDtraceWasGiven)
{
	struct rlimit mine {};
	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &mine), 0);
	tmpdir d;
	auto sh = write_file(
		d.path / "lim.sh",
		"echo soft $(ulimit -Sn) hard $(ulimit -Hn)\n"
		"sed -n 's/^Max open files *\\([0-9]*\\) *\\([0-9]*\\).*/dtrace \\1 \\2/p' "
		"/proc/$PPID/limits\n");
	auto r = dtrace({"-q", "-c", "/bin/sh " + sh.string(), "-n", "BEGIN { }"});
	EXPECT_EQ(r.status, 0) << r.err;
	std::smatch m;
	ASSERT_TRUE(std::regex_search(r.out, m, std::regex("soft (\\d+) hard (\\d+)"))) << r.out;
	EXPECT_EQ(std::stoull(m[1]), mine.rlim_cur);
	EXPECT_EQ(std::stoull(m[2]), mine.rlim_max);
	std::smatch t;
	ASSERT_TRUE(std::regex_search(r.out, t, std::regex("dtrace (\\d+) (\\d+)"))) << r.out;
	// At least the hard limit it was given; as root, fs.nr_open.
	EXPECT_GE(std::stoull(t[1]), mine.rlim_max);
	// Where this process may raise its hard limit (root with
	// CAP_SYS_RESOURCE; not in every container), dtrace reaches fs.nr_open.
	unsigned long long nr_open = 0;
	std::ifstream("/proc/sys/fs/nr_open") >> nr_open;
	pid_t c = fork();
	if (c == 0) {
		struct rlimit up {
			nr_open, nr_open
		};
		_exit(setrlimit(RLIMIT_NOFILE, &up) == 0 ? 0 : 1);
	}
	int ws = 0;
	ASSERT_EQ(waitpid(c, &ws, 0), c);
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
		EXPECT_EQ(std::stoull(t[1]), std::max<unsigned long long>(nr_open, mine.rlim_max));
	}
}

TEST(run_process, ExitsAndReportsWhenTheCreatedCommandExits)
{
	auto start = std::chrono::steady_clock::now();
	auto r = dtrace({"-c", "/bin/true", "-n", "tick-10s { exit(0); }", "-o", "/dev/null"});
	EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
	EXPECT_EQ(r.status, 0);
	EXPECT_TRUE(std::regex_search(r.err, std::regex("^dtrace: description 'tick-10s ' matched "
							"1 probe\ndtrace: pid \\d+ has exited\n$")))
		<< r.err;
}

TEST(run_process, ReportsTheExitStatusOfAFailingCommand)
{
	auto r = dtrace({"-c", "/bin/false", "-n", "tick-10s { exit(0); }", "-o", "/dev/null"});
	EXPECT_EQ(r.status, 0);
	EXPECT_TRUE(std::regex_search(r.err, std::regex("dtrace: pid \\d+ exited with status 1\n")))
		<< r.err;
}

TEST(run_process, QuietSuppressesTheExitNotice)
{
	auto r = dtrace({"-q", "-c", "/bin/true", "-n", "tick-10s { exit(0); }"});
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(r.out, "\n");
}

TEST(run_process, UnknownCommandFailsBeforeTracing)
{
	auto r = dtrace({"-c", "no-such-command-xyz", "-n", "BEGIN"});
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "dtrace: failed to execute no-such-command-xyz: cannot find executable "
			 "file\n");
}

TEST(run_process, CreatedCommandIsKilledWhenTracingEndsFirst)
{
	auto start = std::chrono::steady_clock::now();
	auto r = dtrace({"-q", "-c", "/bin/sleep 30", "-n", "BEGIN { exit(0); }"});
	EXPECT_EQ(r.status, 0);
	EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(run_process, GrabbedProcessExitEndsTracing)
{
	pid_t child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		usleep(300 * 1000);
		_exit(0);
	}
	auto r = dtrace(
		{"-p", std::to_string(child), "-n", "tick-10s { exit(0); }", "-o", "/dev/null"});
	waitpid(child, nullptr, 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NE(r.err.find("dtrace: pid " + std::to_string(child) + " has exited\n"),
		  std::string::npos)
		<< r.err;
}

TEST(run_process, FirstInterruptStopsTracingAndPrintsAggregations)
{
	char tmpl[] = "/tmp/dt-int-XXXXXX";
	int fd = mkstemp(tmpl);
	ASSERT_GE(fd, 0);
	pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		execl(dt::test::dtrace_bin(), "dtrace", "-q", "-n",
		      "tick-10ms { @ = count(); } END { printf(\"end\\n\"); }", nullptr);
		_exit(127);
	}
	std::this_thread::sleep_for(std::chrono::milliseconds(300));
	kill(pid, SIGINT);
	int ws = 0;
	waitpid(pid, &ws, 0);
	std::ifstream in(tmpl);
	std::string out((std::istreambuf_iterator<char>(in)), {});
	unlink(tmpl);
	close(fd);
	ASSERT_TRUE(WIFEXITED(ws));
	EXPECT_EQ(WEXITSTATUS(ws), 0);
	// The newline dtrace prints on ^C, END, the final newline, the count.
	EXPECT_TRUE(std::regex_match(out, std::regex("\nend\n\n +[1-9][0-9]*\n"))) << out;
}

TEST(run_process, InterpreterFileGetsItsOperands)
{
	tmpdir d;
	for (const char *opts : {"-qs", "-q -s"}) {
		auto script =
			write_file(d.path / "hello.d",
				   std::string("#!") + dt::test::dtrace_bin() + " " + opts +
					   "\nBEGIN { printf(\"%s %d\\n\", $$1, $2); exit(0); }\n",
				   true);
		auto r = dt::test::run({script.string(), "world", "7"});
		EXPECT_EQ(r.status, 0) << opts << ": " << r.err;
		EXPECT_EQ(r.out, "world 7\n\n") << opts;
	}
}

} // namespace
