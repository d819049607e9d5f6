// SPDX-License-Identifier: MIT
// What probe listing costs: glob matching, and matching descriptions
// against the live providers through the registry (plugins loaded from
// the build tree). Run as root for the kernel providers:
//   build/bench/listing_bench
#include <dtrace/probe_desc.hpp>
#include <dtrace/provider.hpp>

#include <benchmark/benchmark.h>

#include <unistd.h>

namespace {

void BM_glob_literal(benchmark::State &st)
{
	for (auto _ : st)
		benchmark::DoNotOptimize(dt::glob_match("vfs_read", "vfs_readv"));
}
BENCHMARK(BM_glob_literal);

void BM_glob_pattern(benchmark::State &st)
{
	for (auto _ : st)
		benchmark::DoNotOptimize(dt::glob_match("vfs_*[dv]", "vfs_readv"));
}
BENCHMARK(BM_glob_pattern);

// One description, a fresh registry each time (what one `dtrace -l -n X`
// pays after process start).
void match_fresh(benchmark::State &st, dt::probe_desc d)
{
	size_t n = 0;
	for (auto _ : st) {
		dt::provider_registry reg(dt::plugin_search_path(), {getpid()}, {});
		n = reg.match(d).size();
		benchmark::DoNotOptimize(n);
	}
	st.counters["probes"] = static_cast<double>(n);
}

BENCHMARK_CAPTURE(match_fresh, dtrace_BEGIN, dt::probe_desc{"dtrace", "", "", "BEGIN"})
	->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match_fresh, syscall_one, dt::probe_desc{"syscall", "", "openat", "entry"})
	->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match_fresh, syscall_all, dt::probe_desc{"syscall", "", "", ""})
	->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match_fresh, fbt_one, dt::probe_desc{"fbt", "", "vfs_read", "entry"})
	->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match_fresh, fbt_all, dt::probe_desc{"fbt", "", "", ""})
	->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match_fresh, pid_self_malloc,
		  dt::probe_desc{"pid" + std::to_string(getpid()), "", "malloc", "entry"})
	->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(match_fresh, unanchored_BEGIN, dt::probe_desc{"", "", "", "BEGIN"})
	->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
