// SPDX-License-Identifier: MIT
// Whole commands, side by side with bpftrace in the same run: the cost of
// starting, compiling, running BEGIN and exiting, as a user pays it.
//   build/bench/startup_bench            (bpftrace rows need root and bpftrace;
//                                         they say why when skipped)
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

extern char **environ;

namespace {

// Run argv with stdout/stderr to /dev/null; returns the exit status or -1.
int run(const std::vector<std::string> &argv)
{
	std::vector<char *> args;
	for (const auto &a : argv)
		args.push_back(const_cast<char *>(a.c_str()));
	args.push_back(nullptr);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid = 0;
	int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int status = 0;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

std::string dtrace_bin()
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	std::string self(buf, n > 0 ? static_cast<size_t>(n) : 0);
	return self.substr(0, self.rfind('/')) + "/../bin/dtrace";
}

void command(benchmark::State &st, std::vector<std::string> argv)
{
	if (argv[0] == "bpftrace") {
		if (geteuid() != 0) {
			st.SkipWithError("bpftrace needs root");
			return;
		}
		if (run({"bpftrace", "--version"}) != 0) {
			st.SkipWithError("bpftrace is not installed (apt-get install bpftrace)");
			return;
		}
	}
	for (auto _ : st)
		if (run(argv) != 0)
			st.SkipWithError("command failed");
}

void BM_dtrace_begin_exit(benchmark::State &st)
{
	command(st, {dtrace_bin(), "-qn", "BEGIN { printf(\"hello\\n\"); exit(0); }"});
}
BENCHMARK(BM_dtrace_begin_exit)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_bpftrace_begin_exit(benchmark::State &st)
{
	command(st, {"bpftrace", "-e", "BEGIN { printf(\"hello\\n\"); exit(); }"});
}
BENCHMARK(BM_bpftrace_begin_exit)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_dtrace_aggregate_exit(benchmark::State &st)
{
	command(st, {dtrace_bin(), "-qn",
		     "BEGIN { @[\"a\"] = count(); @q = quantize(12345); exit(0); }"});
}
BENCHMARK(BM_dtrace_aggregate_exit)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_bpftrace_aggregate_exit(benchmark::State &st)
{
	command(st, {"bpftrace", "-e", "BEGIN { @[\"a\"] = count(); @q = hist(12345); exit(); }"});
}
BENCHMARK(BM_bpftrace_aggregate_exit)->Unit(benchmark::kMillisecond)->UseRealTime();

// Every function of libc in a short command (pid$target:libc.so.6::entry,
// ~3000 uprobes): the attach and detach cost a user pays, through one
// uprobe_multi link (6.6 kernels) and through one uprobe perf event and
// program per function (DTRACE_BPF_UPROBE_MULTI=0, the older kernels'
// way), beside bpftrace's wildcard uprobe.
void BM_dtrace_pid_libc_entry_uprobe_multi(benchmark::State &st)
{
	command(st, {dtrace_bin(), "-x", "engine=bpf", "-qn",
		     "pid$target:libc.so.6::entry { @ = count(); }", "-c", "/bin/true"});
}
BENCHMARK(BM_dtrace_pid_libc_entry_uprobe_multi)
	->Unit(benchmark::kMillisecond)
	->UseRealTime()
	->Iterations(3);

void BM_dtrace_pid_libc_entry_per_probe(benchmark::State &st)
{
	command(st, {"env", "DTRACE_BPF_UPROBE_MULTI=0", dtrace_bin(), "-x", "engine=bpf", "-qn",
		     "pid$target:libc.so.6::entry { @ = count(); }", "-c", "/bin/true"});
}
BENCHMARK(BM_dtrace_pid_libc_entry_per_probe)
	->Unit(benchmark::kMillisecond)
	->UseRealTime()
	->Iterations(1); // minutes each

void BM_bpftrace_libc_entry(benchmark::State &st)
{
	// bpftrace refuses more than 512 probes unless told otherwise.
	setenv("BPFTRACE_MAX_PROBES", "100000", 0);
	command(st,
		{"bpftrace", "-e", "uprobe:/usr/lib/x86_64-linux-gnu/libc.so.6:* { @ = count(); }",
		 "-c", "/bin/true"});
}
BENCHMARK(BM_bpftrace_libc_entry)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

} // namespace

BENCHMARK_MAIN();
