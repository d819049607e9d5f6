// SPDX-License-Identifier: MIT
// The bpf engine's cost to the traced program, side by side with bpftrace
// in the same run (issue 5, item 8; issue 12, item 6): the time of one
// getppid() system call with nothing attached, then while a tracer runs
// each of
//
//   count      dtrace:   syscall::getppid:entry { @ = count(); }
//              bpftrace: tracepoint:syscalls:sys_enter_getppid { @ = count(); }
//   false      the same under /pid == 0/ (the predicate never holds)
//   printf     { printf("%d %s\n", pid, execname); } (comm for bpftrace),
//              the tracer's output to a file: counters lines (printed)
//              and drops (what the tracer reported: dtrace's "N drops on
//              CPU C", bpftrace's "Lost N events")
//
// then whole commands:
//
//   exact      10^6 getpgid(777777) calls counted by
//              syscall::getpgid:entry /arg0 == 777777/ { @ = count(); }
//              (args->pid for bpftrace), a fresh tracer per iteration:
//              counters counted (the smallest of the iterations) and
//              exact (1 when every iteration counted 10^6)
//   begin      the wall time and peak RSS (counter peak_rss_mb) of
//              `dtrace -n 'BEGIN { exit(0); }'` (also forced onto the bpf
//              engine) against bpftrace's `BEGIN { exit(); }`
//   one probe  `syscall::getppid:entry { exit(0); }` started, fired by
//              our getppid() calls (one a millisecond), exited: start,
//              attach, first firing, detach, exit
//   all entry  the same with syscall:::entry (every system call: bpftrace's
//              tracepoint:syscalls:sys_enter_*), fired by any call; minus
//              the one-probe row: attaching and detaching them
//
//   sudo build/bench/bpf_overhead_bench      (tools/bench-vs-bpftrace.sh
//                                             installs bpftrace and runs it;
//                                             DTRACE_BIN=path: another dtrace)
//
//   other call getpgid(0) timed while the count tracer traces getppid:
//              what tracing one system call costs the others
//
// and user space (issue 14, item 6), `-p` this process, bpftrace with -p too:
//
//   ufunc      a call of dt_bench_ufunc(), a function of this program:
//              pid$target:a.out:dt_bench_ufunc:entry { @ = count(); }
//              bpftrace: uprobe:<this program>:dt_bench_ufunc { @ = count(); }
//   usdt       one dtbench:::tick site (bench_probes.d, our dtrace -h):
//              dtbench$target:::tick { @ = count(); }
//              bpftrace: usdt:<this program>:dtbench:tick { @ = count(); }
//   sem off    a site behind DTBENCH_GUARDED_ENABLED() while the tracer
//              enables tick only: the is-enabled test is false, the site
//              not taken (the cost of a semaphore-guarded probe that is
//              not enabled, with the provider traced)
//   sem on     the same site while the tracer enables guarded: the test,
//              the probe and the counting
//
// Each traced row reports the time per call and, as the counter
// overhead_ns, that minus the untraced time measured in the same process
// just before the tracer started; cpu_overhead_ns the same in this
// thread's CPU time (the figure to read on a loaded machine: wall time
// also counts waiting for a CPU). Timings are reported, never asserted.
//
// A tracer counts as attached once its BPF programs have run for our own
// getppid() calls: the kernel's run counters (BPF_ENABLE_STATS, read from
// /proc/<tracer>/fdinfo of its bpf-prog descriptors) are switched on only
// while waiting for that, so they cost nothing during the measurement.
//
// Rows skip with the reason printed: without root, without bpftrace, and
// every `-x engine=bpf` row while dtrace refuses that engine (the reason
// is the first line dtrace prints).
#include "bench_probes.h"

#include <benchmark/benchmark.h>

#include <bpf/bpf.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char **environ;

namespace {

using clock_type = std::chrono::steady_clock;

// $DTRACE_BIN, or the dtrace of this build.
std::string dtrace_bin()
{
	if (const char *e = std::getenv("DTRACE_BIN"); e != nullptr && *e != '\0')
		return e;
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	std::string self(buf, n > 0 ? static_cast<size_t>(n) : 0);
	return self.substr(0, self.rfind('/')) + "/../bin/dtrace";
}

// The system call being traced, made directly (no libc caching).
inline long traced_call()
{
	return syscall(SYS_getppid);
}

// A system call the tracers do not trace (the "other call" rows).
inline long other_call()
{
	return syscall(SYS_getpgid, 0);
}

} // namespace

// The user-space rows' targets, with C names (pid$target:a.out:NAME and
// bpftrace's uprobe:<path>:NAME); noinline so that each is a call.
extern "C" __attribute__((noinline)) long dt_bench_ufunc(long i)
{
	__asm__ volatile("" ::: "memory");
	return i + 1;
}

extern "C" __attribute__((noinline)) long dt_bench_usdt_tick(long i)
{
	DTBENCH_TICK(static_cast<int>(i));
	return i;
}

extern "C" __attribute__((noinline)) long dt_bench_usdt_guarded(long i)
{
	if (DTBENCH_GUARDED_ENABLED())
		DTBENCH_GUARDED(static_cast<int>(i));
	return i;
}

namespace {

long g_user_arg;

long ufunc_call()
{
	return dt_bench_ufunc(g_user_arg++);
}

long usdt_tick_call()
{
	return dt_bench_usdt_tick(g_user_arg++);
}

long usdt_guarded_call()
{
	return dt_bench_usdt_guarded(g_user_arg++);
}

// This thread's CPU time: user and system, the traced program's BPF
// included (it runs in the system call, on our time). On a loaded machine
// this is the figure to read: wall time also counts waiting for a CPU.
double thread_cpu_ns()
{
	struct timespec ts {};
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

struct call_cost {
	double wall = 0, cpu = 0; // ns per call
};

// Median wall and CPU time of one call(), over a few batches.
call_cost call_ns(long (*call)() = traced_call)
{
	constexpr int k_batch = 100000;
	std::vector<double> wall, cpu;
	for (int b = 0; b < 5; b++) {
		auto t0 = clock_type::now();
		double c0 = thread_cpu_ns();
		for (int i = 0; i < k_batch; i++)
			benchmark::DoNotOptimize(call());
		cpu.push_back((thread_cpu_ns() - c0) / k_batch);
		std::chrono::duration<double, std::nano> d = clock_type::now() - t0;
		wall.push_back(d.count() / k_batch);
	}
	std::sort(wall.begin(), wall.end());
	std::sort(cpu.begin(), cpu.end());
	return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

// Spawn argv with stdout to `out` (a file, truncated) and stderr to
// `err_fd`'s pipe (or /dev/null with err_fd nullptr). Returns the pid or -1.
pid_t spawn(const std::vector<std::string> &argv, int *err_fd, const std::string &out = "/dev/null")
{
	std::vector<char *> args;
	for (const auto &a : argv)
		args.push_back(const_cast<char *>(a.c_str()));
	args.push_back(nullptr);
	int pipefd[2] = {-1, -1};
	if (err_fd != nullptr && pipe2(pipefd, O_CLOEXEC) != 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (err_fd != nullptr)
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	else
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid = -1;
	int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err_fd != nullptr) {
		close(pipefd[1]);
		if (rc != 0)
			close(pipefd[0]);
		else
			*err_fd = pipefd[0];
	}
	errno = rc;
	return rc == 0 ? pid : -1;
}

// Everything left in a pipe, without blocking.
std::string drain(int fd)
{
	std::string out;
	if (fd < 0)
		return out;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	char buf[4096];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		out.append(buf, static_cast<size_t>(n));
	return out;
}

std::string first_line(const std::string &s)
{
	std::string l = s.substr(0, s.find('\n'));
	return l.empty() ? "(no message)" : l;
}

// Run argv to completion, stderr captured; exit status (or -1), stderr
// and the child's peak RSS in KiB. While it runs, call `poke` (if any)
// every millisecond (e.g. the system call that makes its probe fire).
int run(const std::vector<std::string> &argv, std::string *err = nullptr, long *rss_kb = nullptr,
	void (*poke)() = nullptr)
{
	int efd = -1;
	pid_t pid = spawn(argv, &efd);
	if (pid < 0) {
		if (err != nullptr)
			*err = "cannot run " + argv[0] + ": " + std::strerror(errno);
		return -1;
	}
	std::string text;
	char buf[4096];
	ssize_t n;
	if (poke != nullptr) {
		fcntl(efd, F_SETFL, fcntl(efd, F_GETFL) | O_NONBLOCK);
		for (;;) {
			n = read(efd, buf, sizeof(buf));
			if (n > 0) {
				text.append(buf, static_cast<size_t>(n));
				continue;
			}
			if (n == 0 || errno != EAGAIN)
				break;
			poke();
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
		}
	} else {
		while ((n = read(efd, buf, sizeof(buf))) > 0)
			text.append(buf, static_cast<size_t>(n));
	}
	close(efd);
	int status = 0;
	struct rusage ru {};
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status))
		status = -1;
	else
		status = WEXITSTATUS(status);
	if (err != nullptr)
		*err = text;
	if (rss_kb != nullptr)
		*rss_kb = ru.ru_maxrss;
	return status;
}

// Why a row of this tool cannot run, or nullopt if it can.
std::optional<std::string> unavailable(const std::string &tool)
{
	if (geteuid() != 0)
		return tool + " needs root";
	if (tool == "bpftrace") {
		static const bool have = run({"bpftrace", "--version"}) == 0;
		if (!have)
			return std::string("bpftrace is not installed (apt-get install bpftrace)");
		return std::nullopt;
	}
	// dtrace with the bpf engine: refused until the engine exists.
	static const std::optional<std::string> why = []() -> std::optional<std::string> {
		std::string err;
		int rc = run({dtrace_bin(), "-x", "engine=bpf", "-n", "BEGIN { exit(0); }"}, &err);
		if (rc == 0)
			return std::nullopt;
		return "dtrace -x engine=bpf does not run here yet: " + first_line(err);
	}();
	return why;
}

// The total run count of every BPF program process `pid` holds.
uint64_t prog_runs(pid_t pid)
{
	uint64_t total = 0;
	std::string fds = "/proc/" + std::to_string(pid) + "/fd";
	DIR *d = opendir(fds.c_str());
	if (d == nullptr)
		return 0;
	while (struct dirent *e = readdir(d)) {
		if (e->d_name[0] == '.')
			continue;
		char target[128] = {};
		std::string link = fds + "/" + e->d_name;
		if (readlink(link.c_str(), target, sizeof(target) - 1) < 0 ||
		    std::strcmp(target, "anon_inode:bpf-prog") != 0)
			continue;
		std::ifstream info("/proc/" + std::to_string(pid) + "/fdinfo/" + e->d_name);
		std::string line;
		while (std::getline(info, line))
			if (line.rfind("run_cnt:", 0) == 0)
				total += std::stoull(line.substr(8));
	}
	closedir(d);
	return total;
}

// A tracer running in the background for the length of one benchmark row.
class tracer {
public:
	// `out`: where its stdout goes (read back by each_output_line()).
	explicit tracer(const std::vector<std::string> &argv, std::string out = "/dev/null",
			long (*call)() = traced_call)
		: out_(std::move(out)), call_(call)
	{
		pid_ = spawn(argv, &err_, out_);
	}
	tracer(const tracer &) = delete;
	tracer &operator=(const tracer &) = delete;
	~tracer() { stop(); }

	// Stop the tracer (SIGINT: it prints what it has) and wait for it;
	// its stderr then.
	std::string stop()
	{
		std::string text;
		if (pid_ > 0) {
			kill(pid_, SIGINT);
			for (int i = 0; i < 100; i++) { // up to 10 s to print and exit
				if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
					pid_ = -1;
					break;
				}
				std::this_thread::sleep_for(std::chrono::milliseconds(100));
			}
			if (pid_ > 0) {
				kill(pid_, SIGKILL);
				waitpid(pid_, nullptr, 0);
				pid_ = -1;
			}
		}
		if (err_ >= 0) {
			text = drain(err_);
			close(err_);
			err_ = -1;
		}
		return text;
	}

	// Its output file, read a line at a time: the bench must stay small,
	// since a child's peak RSS counts the parent's at the spawn (the
	// vfork child execs with our memory).
	template <typename F>
	void each_output_line(F &&f) const
	{
		std::ifstream in(out_);
		std::string line;
		while (std::getline(in, line))
			f(line);
	}

	// Wait until the tracer's programs run for our calls; false (with
	// `why`) if it exits or takes more than 30 s.
	bool wait_attached(std::string &why)
	{
		if (pid_ < 0) {
			why = "cannot start the tracer";
			return false;
		}
		int stats = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats < 0) {
			why = std::string("cannot enable BPF run counters: ") +
			      std::strerror(errno);
			return false;
		}
		bool ok = false;
		auto deadline = clock_type::now() + std::chrono::seconds(30);
		while (clock_type::now() < deadline) {
			int status = 0;
			if (waitpid(pid_, &status, WNOHANG) == pid_) {
				pid_ = -1;
				why = "the tracer exited: " + first_line(drain(err_));
				break;
			}
			uint64_t before = prog_runs(pid_);
			for (int i = 0; i < 1000; i++)
				call_();
			if (prog_runs(pid_) >= before + 1000) {
				ok = true;
				break;
			}
			std::this_thread::sleep_for(std::chrono::milliseconds(20));
		}
		close(stats);
		if (!ok && why.empty())
			why = "the tracer did not attach within 30 s: " + first_line(drain(err_));
		return ok;
	}

private:
	std::string out_;
	long (*call_)();
	pid_t pid_ = -1;
	int err_ = -1;
};

// The drops one line of a tracer's output reports: dtrace's "dtrace: N
// drops on CPU C" (stderr), bpftrace's "Lost N events" (its output).
uint64_t reported_drops(const std::string &line)
{
	unsigned long long n = 0;
	if (std::sscanf(line.c_str(), "dtrace: %llu drop", &n) == 1 ||
	    std::sscanf(line.c_str(), "Lost %llu events", &n) == 1)
		return n;
	return 0;
}

// The last unsigned number in `text` (an aggregation's printed value), or
// `none`.
uint64_t last_number(const std::string &text, uint64_t none)
{
	size_t end = text.find_last_of("0123456789");
	if (end == std::string::npos)
		return none;
	size_t start = text.find_last_not_of("0123456789", end);
	start = start == std::string::npos ? 0 : start + 1;
	return std::stoull(text.substr(start, end - start + 1));
}

std::string out_file(const std::string &tag)
{
	return "/tmp/bpf_overhead_bench." + std::to_string(getpid()) + "." + tag;
}

// One traced row: the untraced time first, then the tracer, then the loop.
// With `printed`, the tracer's output goes to a file and the row reports
// its lines and the drops the tracer reported.
// With `timed` other than traced_call, that call is timed instead (the
// tracer still traces getppid): what a tracer costs the calls it does not
// trace.
// `poke` is what makes the tracer's programs run while wait_attached()
// waits (getppid by default; the user rows' own calls).
void traced(benchmark::State &st, const std::string &tool, const std::vector<std::string> &argv,
	    bool printed = false, long (*timed)() = traced_call, long (*poke)() = traced_call)
{
	if (auto why = unavailable(tool)) {
		st.SkipWithError(why->c_str());
		return;
	}
	call_cost base = call_ns(timed);
	const std::string out = printed ? out_file(tool) : "/dev/null";
	tracer t(argv, out, poke);
	std::string why;
	if (!t.wait_attached(why)) {
		st.SkipWithError(why.c_str());
		return;
	}
	auto t0 = clock_type::now();
	double c0 = thread_cpu_ns();
	for (auto _ : st)
		benchmark::DoNotOptimize(timed());
	double cpu = thread_cpu_ns() - c0;
	std::chrono::duration<double, std::nano> d = clock_type::now() - t0;
	const double n = st.iterations() > 0 ? static_cast<double>(st.iterations()) : 1;
	st.counters["untraced_ns"] = base.wall;
	st.counters["overhead_ns"] = d.count() / n - base.wall;
	st.counters["cpu_overhead_ns"] = cpu / n - base.cpu;
	if (printed) {
		std::string err = t.stop();
		uint64_t lines = 0, drops = 0;
		t.each_output_line([&](const std::string &l) {
			lines++;
			drops += reported_drops(l);
		});
		for (size_t pos = 0; pos < err.size();) {
			size_t nl = std::min(err.find('\n', pos), err.size());
			drops += reported_drops(err.substr(pos, nl - pos));
			pos = nl + 1;
		}
		st.counters["lines"] = static_cast<double>(lines);
		st.counters["drops"] = static_cast<double>(drops);
		unlink(out.c_str());
	}
}

// The exact-count row: per iteration a fresh tracer, 10^6 calls it counts,
// its printed count. getpgid(k_exact_arg) is counted; getpgid(1), which
// its program also sees, tells us that it is attached.
constexpr long k_exact_arg = 777777;
constexpr uint64_t k_exact_calls = 1'000'000;
long getpgid_probe()
{
	return syscall(SYS_getpgid, 1);
}
void exact(benchmark::State &st, const std::string &tool, const std::vector<std::string> &argv)
{
	if (auto why = unavailable(tool)) {
		st.SkipWithError(why->c_str());
		return;
	}
	uint64_t least = UINT64_MAX;
	bool all = true;
	const std::string out = out_file(tool + ".exact");
	for (auto _ : st) {
		tracer t(argv, out, getpgid_probe);
		std::string why;
		if (!t.wait_attached(why)) {
			st.SkipWithError(why.c_str());
			return;
		}
		for (uint64_t i = 0; i < k_exact_calls; i++)
			benchmark::DoNotOptimize(syscall(SYS_getpgid, k_exact_arg));
		t.stop();
		uint64_t n = 0;
		t.each_output_line([&](const std::string &l) { n = last_number(l, n); });
		least = std::min(least, n);
		all = all && n == k_exact_calls;
	}
	unlink(out.c_str());
	st.counters["counted"] = static_cast<double>(least);
	st.counters["exact"] = all ? 1 : 0;
}

// The tracers' command lines.
std::vector<std::string> dtrace_cmd(const std::string &script)
{
	return {dtrace_bin(), "-x", "engine=bpf", "-q", "-n", script};
}
std::vector<std::string> bpftrace_cmd(const std::string &script)
{
	return {"bpftrace", "-e", script};
}

const char *const k_d_count = "syscall::getppid:entry { @ = count(); }";
const char *const k_d_false = "syscall::getppid:entry /pid == 0/ { @ = count(); }";
const char *const k_d_printf = "syscall::getppid:entry { printf(\"%d %s\\n\", pid, execname); }";
const char *const k_bt_count = "tracepoint:syscalls:sys_enter_getppid { @ = count(); }";
const char *const k_bt_false = "tracepoint:syscalls:sys_enter_getppid /pid == 0/ { @ = count(); }";
const char *const k_bt_printf =
	"tracepoint:syscalls:sys_enter_getppid { printf(\"%d %s\\n\", pid, comm); }";
const char *const k_d_exact = "syscall::getpgid:entry /arg0 == 777777/ { @ = count(); }";
const char *const k_bt_exact =
	"tracepoint:syscalls:sys_enter_getpgid /args->pid == 777777/ { @ = count(); }";

void BM_getppid_untraced(benchmark::State &st)
{
	for (auto _ : st)
		benchmark::DoNotOptimize(traced_call());
}

void BM_getppid_dtrace_count(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_cmd(k_d_count));
}
void BM_getppid_bpftrace_count(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_cmd(k_bt_count));
}
void BM_getppid_dtrace_false_predicate(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_cmd(k_d_false));
}
void BM_getppid_bpftrace_false_predicate(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_cmd(k_bt_false));
}
void BM_getppid_dtrace_printf(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_cmd(k_d_printf), true);
}
void BM_getppid_bpftrace_printf(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_cmd(k_bt_printf), true);
}
void BM_other_call_dtrace_count(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_cmd(k_d_count), false, other_call);
}
void BM_other_call_bpftrace_count(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_cmd(k_bt_count), false, other_call);
}
void BM_exact_count_dtrace(benchmark::State &st)
{
	exact(st, "dtrace", dtrace_cmd(k_d_exact));
}
void BM_exact_count_bpftrace(benchmark::State &st)
{
	exact(st, "bpftrace", bpftrace_cmd(k_bt_exact));
}

// Whole commands: start, run BEGIN (or wait for `poke` to fire the probe),
// exit; counter peak_rss_mb the largest of the runs.
void command(benchmark::State &st, const std::string &tool, const std::vector<std::string> &argv,
	     void (*poke)() = nullptr)
{
	if (auto why = unavailable(tool)) {
		st.SkipWithError(why->c_str());
		return;
	}
	long peak = 0;
	for (auto _ : st) {
		std::string err;
		long rss = 0;
		if (run(argv, &err, &rss, poke) != 0) {
			st.SkipWithError(("command failed: " + first_line(err)).c_str());
			break;
		}
		peak = std::max(peak, rss);
	}
	st.counters["peak_rss_mb"] = static_cast<double>(peak) / 1024.0;
}

void BM_begin_exit_dtrace(benchmark::State &st)
{
	// Whichever engine dtrace picks for a BEGIN-only program.
	if (geteuid() != 0) {
		st.SkipWithError("dtrace needs root");
		return;
	}
	long peak = 0;
	for (auto _ : st) {
		std::string err;
		long rss = 0;
		if (run({dtrace_bin(), "-n", "BEGIN { exit(0); }"}, &err, &rss) != 0) {
			st.SkipWithError(("command failed: " + first_line(err)).c_str());
			break;
		}
		peak = std::max(peak, rss);
	}
	st.counters["peak_rss_mb"] = static_cast<double>(peak) / 1024.0;
}
void BM_begin_exit_dtrace_bpf(benchmark::State &st)
{
	command(st, "dtrace", {dtrace_bin(), "-x", "engine=bpf", "-n", "BEGIN { exit(0); }"});
}
void BM_begin_exit_bpftrace(benchmark::State &st)
{
	command(st, "bpftrace", {"bpftrace", "-e", "BEGIN { exit(); }"});
}

void poke_getppid()
{
	(void)traced_call();
}
void BM_one_probe_dtrace(benchmark::State &st)
{
	command(st, "dtrace",
		{dtrace_bin(), "-x", "engine=bpf", "-n", "syscall::getppid:entry { exit(0); }"},
		poke_getppid);
}
void BM_one_probe_bpftrace(benchmark::State &st)
{
	command(st, "bpftrace",
		{"bpftrace", "-e", "tracepoint:syscalls:sys_enter_getppid { exit(); }"},
		poke_getppid);
}
void BM_all_entry_dtrace(benchmark::State &st)
{
	command(st, "dtrace",
		{dtrace_bin(), "-x", "engine=bpf", "-n", "syscall:::entry { exit(0); }"},
		poke_getppid);
}
void BM_all_entry_bpftrace(benchmark::State &st)
{
	command(st, "bpftrace", {"bpftrace", "-e", "tracepoint:syscalls:sys_enter_* { exit(); }"},
		poke_getppid);
}

// ustack() per event (issue 14, item 6): the frame pointer walk in the
// probe (-x ustackbytes=0), the default (registers and 4 KiB of stack copied
// in the probe, unwound by the dtrace process: docs/ustack.md), then
// -x ustackbytes=8k; output to a file.
const char *const k_d_ustack = "syscall::getppid:entry { ustack(); }";
void BM_getppid_dtrace_ustack_fp(benchmark::State &st)
{
	auto argv = dtrace_cmd(k_d_ustack);
	argv.insert(argv.begin() + 1, {"-x", "ustackbytes=0"});
	traced(st, "dtrace", argv, true);
}
void BM_getppid_dtrace_ustack_default(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_cmd(k_d_ustack), true);
}
void BM_getppid_dtrace_ustack_dwarf(benchmark::State &st)
{
	auto argv = dtrace_cmd(k_d_ustack);
	argv.insert(argv.begin() + 1, {"-x", "ustackbytes=8k"});
	traced(st, "dtrace", argv, true);
}
// An aggregation keyed by ustack(): the default key (4 KiB copied, hashed
// whole at each update), beside a key of 1,536 bytes (what keys copied
// while the bpf engine's keys were at most 2 KiB).
const char *const k_d_ustack_key = "syscall::getppid:entry { @[ustack()] = count(); }";
void BM_getppid_dtrace_ustack_key(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_cmd(k_d_ustack_key));
}
void BM_getppid_dtrace_ustack_key_1536(benchmark::State &st)
{
	auto argv = dtrace_cmd(k_d_ustack_key);
	argv.insert(argv.begin() + 1, {"-x", "ustackbytes=1536"});
	traced(st, "dtrace", argv);
}
// The user-space rows: this process traced by pid (dtrace -p, bpftrace -p).
std::string self_pid()
{
	return std::to_string(getpid());
}
std::string self_exe()
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	return std::string(buf, n > 0 ? static_cast<size_t>(n) : 0);
}
std::vector<std::string> dtrace_self(const std::string &script)
{
	return {dtrace_bin(), "-x", "engine=bpf", "-q", "-p", self_pid(), "-n", script};
}
std::vector<std::string> bpftrace_self(const std::string &probe)
{
	return {"bpftrace", "-p", self_pid(), "-e", probe + " { @ = count(); }"};
}

void BM_ufunc_untraced(benchmark::State &st)
{
	for (auto _ : st)
		benchmark::DoNotOptimize(ufunc_call());
}
void BM_ufunc_dtrace_count(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_self("pid$target:a.out:dt_bench_ufunc:entry { @ = count(); }"),
	       false, ufunc_call, ufunc_call);
}
void BM_ufunc_bpftrace_count(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_self("uprobe:" + self_exe() + ":dt_bench_ufunc"), false,
	       ufunc_call, ufunc_call);
}
void BM_usdt_untraced(benchmark::State &st)
{
	for (auto _ : st)
		benchmark::DoNotOptimize(usdt_tick_call());
}
void BM_usdt_dtrace_count(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_self("dtbench$target:::tick { @ = count(); }"), false,
	       usdt_tick_call, usdt_tick_call);
}
void BM_usdt_bpftrace_count(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_self("usdt:" + self_exe() + ":dtbench:tick"), false,
	       usdt_tick_call, usdt_tick_call);
}
void BM_usdt_sem_untraced(benchmark::State &st)
{
	for (auto _ : st)
		benchmark::DoNotOptimize(usdt_guarded_call());
}
void BM_usdt_sem_off_dtrace(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_self("dtbench$target:::tick { @ = count(); }"), false,
	       usdt_guarded_call, usdt_tick_call);
}
void BM_usdt_sem_off_bpftrace(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_self("usdt:" + self_exe() + ":dtbench:tick"), false,
	       usdt_guarded_call, usdt_tick_call);
}
void BM_usdt_sem_on_dtrace(benchmark::State &st)
{
	traced(st, "dtrace", dtrace_self("dtbench$target:::guarded { @ = count(); }"), false,
	       usdt_guarded_call, usdt_guarded_call);
}
void BM_usdt_sem_on_bpftrace(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_self("usdt:" + self_exe() + ":dtbench:guarded"), false,
	       usdt_guarded_call, usdt_guarded_call);
}

} // namespace

BENCHMARK(BM_getppid_untraced)->UseRealTime();
// Fixed iteration counts: each run of a traced row starts its own tracer,
// so Google Benchmark must not probe for an iteration count.
constexpr int64_t k_cheap = 2'000'000; // ~0.5 s at a few hundred ns a call
constexpr int64_t k_printf = 200'000;  // ~4 s at bpftrace's 20 us a call
BENCHMARK(BM_getppid_dtrace_count)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_getppid_bpftrace_count)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_getppid_dtrace_false_predicate)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_getppid_bpftrace_false_predicate)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_getppid_dtrace_printf)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_getppid_bpftrace_printf)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_other_call_dtrace_count)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_other_call_bpftrace_count)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_exact_count_dtrace)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_exact_count_bpftrace)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_begin_exit_dtrace)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_begin_exit_dtrace_bpf)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_begin_exit_bpftrace)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK(BM_one_probe_dtrace)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_one_probe_bpftrace)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_all_entry_dtrace)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_all_entry_bpftrace)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

BENCHMARK(BM_getppid_dtrace_ustack_fp)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_getppid_dtrace_ustack_default)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_getppid_dtrace_ustack_dwarf)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_getppid_dtrace_ustack_key)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_getppid_dtrace_ustack_key_1536)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_ufunc_untraced)->UseRealTime();
// A function's first instruction is single-stepped out of line (two traps
// per call, ~15 us under a hypervisor): fewer calls.
BENCHMARK(BM_ufunc_dtrace_count)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_ufunc_bpftrace_count)->UseRealTime()->Iterations(k_printf);
BENCHMARK(BM_usdt_untraced)->UseRealTime();
BENCHMARK(BM_usdt_dtrace_count)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_usdt_bpftrace_count)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_usdt_sem_untraced)->UseRealTime();
BENCHMARK(BM_usdt_sem_off_dtrace)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_usdt_sem_off_bpftrace)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_usdt_sem_on_dtrace)->UseRealTime()->Iterations(k_cheap);
BENCHMARK(BM_usdt_sem_on_bpftrace)->UseRealTime()->Iterations(k_cheap);

BENCHMARK_MAIN();
