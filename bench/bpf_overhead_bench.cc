// SPDX-License-Identifier: MIT
// The bpf engine's cost to the traced program, side by side with bpftrace
// in the same run (issue 5, item 8): the time of one getppid() system call
// with nothing attached, then while a tracer runs each of
//
//   count      dtrace:   syscall::getppid:entry { @ = count(); }
//              bpftrace: tracepoint:syscalls:sys_enter_getppid { @ = count(); }
//   false      the same under /pid == 0/ (the predicate never holds)
//   printf     { printf("%d\n", pid); } with the tracer's output to /dev/null
//
// and the wall time of `dtrace -n 'BEGIN { exit(0); }'` (also forced onto
// the bpf engine) against bpftrace's `BEGIN { exit(); }`.
//
//   sudo build/bench/bpf_overhead_bench
//
// Each traced row reports the time per call and, as the counter
// overhead_ns, that minus the untraced time measured in the same process
// just before the tracer started. Timings are reported, never asserted.
//
// A tracer counts as attached once its BPF programs have run for our own
// getppid() calls: the kernel's run counters (BPF_ENABLE_STATS, read from
// /proc/<tracer>/fdinfo of its bpf-prog descriptors) are switched on only
// while waiting for that, so they cost nothing during the measurement.
//
// Rows skip with the reason printed: without root, without bpftrace, and
// every `-x engine=bpf` row while dtrace refuses that engine (the reason
// is the first line dtrace prints).
#include <benchmark/benchmark.h>

#include <bpf/bpf.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char **environ;

namespace {

using clock_type = std::chrono::steady_clock;

std::string dtrace_bin()
{
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

// Median time of one traced_call(), over a few batches.
double call_ns()
{
	constexpr int k_batch = 100000;
	std::vector<double> per_call;
	for (int b = 0; b < 5; b++) {
		auto t0 = clock_type::now();
		for (int i = 0; i < k_batch; i++)
			benchmark::DoNotOptimize(traced_call());
		std::chrono::duration<double, std::nano> d = clock_type::now() - t0;
		per_call.push_back(d.count() / k_batch);
	}
	std::sort(per_call.begin(), per_call.end());
	return per_call[per_call.size() / 2];
}

// Spawn argv with stdout to /dev/null and stderr to `err_fd`'s pipe (or
// /dev/null with err_fd nullptr). Returns the pid or -1.
pid_t spawn(const std::vector<std::string> &argv, int *err_fd)
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
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
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

// Run argv to completion, stderr captured; exit status (or -1) and stderr.
int run(const std::vector<std::string> &argv, std::string *err = nullptr)
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
	while ((n = read(efd, buf, sizeof(buf))) > 0)
		text.append(buf, static_cast<size_t>(n));
	close(efd);
	int status = 0;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		status = -1;
	else
		status = WEXITSTATUS(status);
	if (err != nullptr)
		*err = text;
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
	explicit tracer(const std::vector<std::string> &argv) { pid_ = spawn(argv, &err_); }
	tracer(const tracer &) = delete;
	tracer &operator=(const tracer &) = delete;
	~tracer()
	{
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
			}
		}
		if (err_ >= 0)
			close(err_);
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
				traced_call();
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
	pid_t pid_ = -1;
	int err_ = -1;
};

// One traced row: the untraced time first, then the tracer, then the loop.
void traced(benchmark::State &st, const std::string &tool, const std::vector<std::string> &argv)
{
	if (auto why = unavailable(tool)) {
		st.SkipWithError(why->c_str());
		return;
	}
	double base = call_ns();
	tracer t(argv);
	std::string why;
	if (!t.wait_attached(why)) {
		st.SkipWithError(why.c_str());
		return;
	}
	auto t0 = clock_type::now();
	for (auto _ : st)
		benchmark::DoNotOptimize(traced_call());
	std::chrono::duration<double, std::nano> d = clock_type::now() - t0;
	double per_call =
		st.iterations() > 0 ? d.count() / static_cast<double>(st.iterations()) : 0;
	st.counters["untraced_ns"] = base;
	st.counters["overhead_ns"] = per_call - base;
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
const char *const k_d_printf = "syscall::getppid:entry { printf(\"%d\\n\", pid); }";
const char *const k_bt_count = "tracepoint:syscalls:sys_enter_getppid { @ = count(); }";
const char *const k_bt_false = "tracepoint:syscalls:sys_enter_getppid /pid == 0/ { @ = count(); }";
const char *const k_bt_printf = "tracepoint:syscalls:sys_enter_getppid { printf(\"%d\\n\", pid); }";

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
	traced(st, "dtrace", dtrace_cmd(k_d_printf));
}
void BM_getppid_bpftrace_printf(benchmark::State &st)
{
	traced(st, "bpftrace", bpftrace_cmd(k_bt_printf));
}

// Whole commands: start, run BEGIN, exit.
void command(benchmark::State &st, const std::string &tool, const std::vector<std::string> &argv)
{
	if (auto why = unavailable(tool)) {
		st.SkipWithError(why->c_str());
		return;
	}
	for (auto _ : st) {
		std::string err;
		if (run(argv, &err) != 0) {
			st.SkipWithError(("command failed: " + first_line(err)).c_str());
			break;
		}
	}
}

void BM_begin_exit_dtrace(benchmark::State &st)
{
	// Whichever engine dtrace picks for a BEGIN-only program.
	if (geteuid() != 0) {
		st.SkipWithError("dtrace needs root");
		return;
	}
	for (auto _ : st) {
		std::string err;
		if (run({dtrace_bin(), "-n", "BEGIN { exit(0); }"}, &err) != 0) {
			st.SkipWithError(("command failed: " + first_line(err)).c_str());
			break;
		}
	}
}
void BM_begin_exit_dtrace_bpf(benchmark::State &st)
{
	command(st, "dtrace", {dtrace_bin(), "-x", "engine=bpf", "-n", "BEGIN { exit(0); }"});
}
void BM_begin_exit_bpftrace(benchmark::State &st)
{
	command(st, "bpftrace", {"bpftrace", "-e", "BEGIN { exit(); }"});
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
BENCHMARK(BM_begin_exit_dtrace)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_begin_exit_dtrace_bpf)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_begin_exit_bpftrace)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
