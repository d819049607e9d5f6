#!/usr/bin/env bash
# The side-by-side benchmarks with bpftrace (docs/perf.md, issue 12):
# installs bpftrace for them only (it is not a build or CI dependency),
# builds the benchmarks and runs them, printing the machine first.
#
#   sudo tools/bench-vs-bpftrace.sh [build-dir]     (default: build)
#
# Rows of one run are comparable; timings are reported, never asserted.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}

if [ "$(id -u)" -ne 0 ]; then
	echo "bench-vs-bpftrace.sh: needs root (BPF programs, apt-get)" >&2
	exit 2
fi
if ! command -v bpftrace >/dev/null 2>&1; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "bench-vs-bpftrace.sh: bpftrace is not installed and there is no apt-get;" \
			"install bpftrace with the system's package manager" >&2
		exit 1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends bpftrace
fi

cmake --build "$build" -j "$(nproc)" --target dtrace_cli bpf_overhead_bench startup_bench

echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine:  $(uname -m), $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1))"
echo "kernel:   $(uname -r)"
echo "bpftrace: $(bpftrace --version)"
echo "dtrace:   $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bench/bpf_overhead_bench" --benchmark_counters_tabular=true
"$build/bench/startup_bench"
