// SPDX-License-Identifier: MIT
// The kmod engine's cost per probe firing (issue 4, item 6): dt_perf.ko
// (kmod/perf) calls dtrace_probe() N times in a tight loop in the kernel
// and times the loop itself; each row runs that loop while the real
// dtrace(1) traces the probe with one configuration:
//
//   loop_baseline    the loop calling an empty function instead (its own cost)
//   no_ecb           dt_perf:::fire exists, nothing enabled
//   empty_clause     dt_perf:::fire { }            (the default action: an
//                                                  EPID-only record per firing)
//   predicate_false  dt_perf:::fire /arg1 == 0/ { }   (arg1 is always 1)
//   count            dt_perf:::fire { @ = count(); }
//   printf           dt_perf:::fire { printf("%d\n", arg0); }
//
// It needs the kernel: bench/vm-bench.sh builds the modules, boots the VM
// tier's guest and runs it there (dtrace.ko and dt_perf.ko loaded,
// DTRACE_KMOD_DIR set). Elsewhere every row skips with the reason.
//
// Each iteration is one loop of DTRACE_PERF_BATCH firings (default 4000);
// its time is the kernel's (manual time), and the counter ns_per_probe is
// the mean over all iterations. Each iteration also runs the same loop on
// dt_perf:::bare, a probe never enabled (the bare probe: what no_ecb
// measures), right after the row's own. The emulated guest shares a busy
// host, whose load only ever adds time: ns_min is the row's fastest
// iteration, and x_bare its ratio to the bare probe's fastest one, side by
// side in the same iterations, which the drift between rows does not skew. dtrace runs with -Z (dt_perf has no
// userspace plugin: the kernel matches the description) and writes to
// files; the counter drops sums its "N drops on CPU" reports (0 means
// every firing was recorded). Timings are reported, never asserted.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char **environ;

namespace {

const std::string k_dir = "/sys/kernel/debug/dt_perf";

std::string dtrace_bin()
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	std::string self(buf, n > 0 ? static_cast<size_t>(n) : 0);
	return self.substr(0, self.rfind('/')) + "/../bin/dtrace";
}

uint64_t batch()
{
	const char *s = std::getenv("DTRACE_PERF_BATCH");
	uint64_t n = s != nullptr ? std::strtoull(s, nullptr, 10) : 0;
	return n != 0 ? n : 4000;
}

std::string slurp(const std::string &path)
{
	std::ifstream in(path);
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

// One loop in the kernel: write N to fire (or loop), read "N NS" back.
bool run_loop(const std::string &file, uint64_t n, uint64_t &ns)
{
	int fd = open((k_dir + "/" + file).c_str(), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	std::string s = std::to_string(n);
	bool ok = write(fd, s.data(), s.size()) == static_cast<ssize_t>(s.size());
	close(fd);
	uint64_t got = 0;
	std::istringstream in(slurp(k_dir + "/last"));
	return ok && (in >> got >> ns) && got == n;
}

// dtrace -Z -x engine=kmod -q -n '<BEGIN printf ready> <clause>', stdout
// and stderr to files; running once BEGIN's "ready" is out and the probe
// is enabled.
class tracer {
public:
	explicit tracer(const std::string &clause)
	{
		const char *tmp = std::getenv("TMPDIR");
		std::string base = std::string(tmp != nullptr ? tmp : "/tmp") +
				   "/kmod_probe_bench." + std::to_string(getpid());
		out_ = base + ".out";
		err_ = base + ".err";
		std::string prog = "dtrace:::BEGIN { printf(\"ready\\n\"); } " + clause;
		std::vector<std::string> argv = {dtrace_bin(), "-Z",  "-x", "engine=kmod", "-q",
						 "-b",	       "16m", "-n", prog};
		std::vector<char *> args;
		for (auto &a : argv)
			args.push_back(a.data());
		args.push_back(nullptr);
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
						 0600);
		posix_spawn_file_actions_addopen(&fa, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
						 0600);
		int rc = posix_spawn(&pid_, args[0], &fa, nullptr, args.data(), environ);
		posix_spawn_file_actions_destroy(&fa);
		if (rc != 0) {
			why_ = "cannot run " + argv[0] + ": " + std::strerror(rc);
			pid_ = -1;
			return;
		}
		auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
		while (std::chrono::steady_clock::now() < deadline) {
			int st = 0;
			if (waitpid(pid_, &st, WNOHANG) == pid_) {
				pid_ = -1;
				why_ = "dtrace exited: " + first_line(slurp(err_));
				return;
			}
			if (slurp(out_).starts_with("ready\n") &&
			    slurp(k_dir + "/enabled").starts_with("1"))
				return;
			std::this_thread::sleep_for(std::chrono::milliseconds(50));
		}
		why_ = "dtrace did not start tracing within 180 s";
	}

	~tracer()
	{
		stop();
		unlink(out_.c_str());
		unlink(err_.c_str());
	}

	const std::string &why() const { return why_; }

	// ^C, as a user stops it; the drops it reported.
	uint64_t stop()
	{
		if (pid_ > 0) {
			kill(pid_, SIGINT);
			int st = 0;
			waitpid(pid_, &st, 0);
			pid_ = -1;
		}
		uint64_t drops = 0;
		std::string err = slurp(err_);
		static const std::regex re("([0-9]+) (?:[a-z]+ )?drops on CPU");
		for (std::sregex_iterator it(err.begin(), err.end(), re), end; it != end; ++it)
			drops += std::strtoull((*it)[1].str().c_str(), nullptr, 10);
		return drops;
	}

private:
	static std::string first_line(const std::string &s) { return s.substr(0, s.find('\n')); }

	pid_t pid_ = -1;
	std::string out_, err_, why_;
};

void measure(benchmark::State &st, const std::string &file, const char *clause)
{
	if (access((k_dir + "/fire").c_str(), W_OK) != 0) {
		st.SkipWithError(
			"dt_perf.ko is not loaded (bench/vm-bench.sh runs this in the VM)");
		return;
	}
	std::unique_ptr<tracer> t;
	if (clause != nullptr) {
		t = std::make_unique<tracer>(clause);
		if (!t->why().empty()) {
			st.SkipWithError(t->why().c_str());
			return;
		}
	}
	const uint64_t n = batch();
	uint64_t total_ns = 0, total = 0, min_ns = UINT64_MAX, min_bare = UINT64_MAX;
	for (auto _ : st) {
		uint64_t ns = 0, bns = 0;
		if (!run_loop(file, n, ns) || !run_loop("bare", n, bns)) {
			st.SkipWithError("writing to dt_perf failed");
			return;
		}
		st.SetIterationTime(static_cast<double>(ns) / 1e9);
		total_ns += ns;
		total += n;
		min_ns = std::min(min_ns, ns);
		min_bare = std::min(min_bare, bns);
	}
	st.counters["ns_per_probe"] = total ? static_cast<double>(total_ns) / total : 0;
	if (total != 0) {
		st.counters["ns_min"] = static_cast<double>(min_ns) / static_cast<double>(n);
		st.counters["x_bare"] =
			min_bare ? static_cast<double>(min_ns) / static_cast<double>(min_bare) : 0;
	}
	st.counters["batch"] = static_cast<double>(n);
	if (t)
		st.counters["drops"] = static_cast<double>(t->stop());
}

constexpr int k_iters = 50;

void BM_loop_baseline(benchmark::State &st)
{
	measure(st, "loop", nullptr);
}
BENCHMARK(BM_loop_baseline)->UseManualTime()->Iterations(k_iters)->Unit(benchmark::kMillisecond);

void BM_no_ecb(benchmark::State &st)
{
	measure(st, "fire", nullptr);
}
BENCHMARK(BM_no_ecb)->UseManualTime()->Iterations(k_iters)->Unit(benchmark::kMillisecond);

void BM_empty_clause(benchmark::State &st)
{
	measure(st, "fire", "dt_perf:::fire { }");
}
BENCHMARK(BM_empty_clause)->UseManualTime()->Iterations(k_iters)->Unit(benchmark::kMillisecond);

void BM_predicate_false(benchmark::State &st)
{
	measure(st, "fire", "dt_perf:::fire /arg1 == 0/ { }");
}
BENCHMARK(BM_predicate_false)->UseManualTime()->Iterations(k_iters)->Unit(benchmark::kMillisecond);

void BM_count(benchmark::State &st)
{
	measure(st, "fire", "dt_perf:::fire { @ = count(); }");
}
BENCHMARK(BM_count)->UseManualTime()->Iterations(k_iters)->Unit(benchmark::kMillisecond);

void BM_printf(benchmark::State &st)
{
	measure(st, "fire", "dt_perf:::fire { printf(\"%d\\n\", arg0); }");
}
BENCHMARK(BM_printf)->UseManualTime()->Iterations(k_iters)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
