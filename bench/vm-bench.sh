#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kmod engine's probe overhead benchmark (bench/kmod_probe_bench.cc),
# run where modules load: builds dtrace.ko and dt_perf.ko (kmod/perf) for
# the VM tier's kernel, boots the guest once (two CPUs: dtrace consumes on
# one while the loop fires on the other) and runs the benchmark there.
# Not a ctest: timings are reported (docs/perf.md), never asserted; under
# TCG emulation only the ratios between rows mean anything.
#
# Usage: bench/vm-bench.sh [BUILD_DIR [BENCHMARK_ARG...]]
#   BUILD_DIR (default build) holds bin/dtrace and bench/kmod_probe_bench
#   (ninja dtrace_cli kmod_probe_bench). The kernel cache is
#   $DTRACE_VM_CACHE, default BUILD_DIR/vm; the output and the console log
#   go to BUILD_DIR/vm-bench/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
shift || true
bargs="$*"
bench=$build/bench/kmod_probe_bench
[ -x "$bench" ] || { echo "no $bench (ninja -C $build kmod_probe_bench)" >&2; exit 1; }
[ -x "$build/bin/dtrace" ] || { echo "no $build/bin/dtrace" >&2; exit 1; }
export DTRACE_VM_CACHE=${DTRACE_VM_CACHE:-$build/vm}
work=$build/vm-bench
rm -rf "$work"
mkdir -p "$work/modules"

kbuild() { # kbuild SRC NAME [MAKE_ARG...]
	local src=$1 name=$2
	shift 2
	nice "$top/tools/vm/kbuild.sh" "$top/$src" "$work/build/$name" DTRACE_TOP="$top" "$@" -j2 \
		>"$work/kbuild-$name.log" 2>&1 ||
		{ cat "$work/kbuild-$name.log"; echo "building $src failed" >&2; exit 1; }
}
kbuild kmod/core core
kbuild kmod/perf perf KBUILD_EXTRA_SYMBOLS="$work/build/core/Module.symvers"
cp "$work/build/core/dtrace.ko" "$work/build/perf/dt_perf.ko" "$work/modules/"

cat >"$work/guest.sh" <<GUEST
set -e
insmod $work/modules/dtrace.ko
insmod $work/modules/dt_perf.ko
echo "# guest: \$(uname -r), \$(nproc) CPUs, \$(grep -m1 'model name' /proc/cpuinfo)"
DTRACE_KMOD_DIR=$work/modules $bench --benchmark_counters_tabular=true $bargs
rmmod dt_perf
rmmod dtrace
GUEST
rc=0
"$top/tools/vm/run.sh" -q -c 2 -t 1500 -l "$work/console.log" -o "$work/bench.txt" \
	bash "$work/guest.sh" || rc=$?
cat "$work/bench.txt"
[ "$rc" = 0 ] || { echo "vm-bench: run.sh exited $rc (console: $work/console.log)" >&2; exit "$rc"; }
