#!/usr/bin/env bash
# dt_perf.ko's correctness in the VM (ctest vm.kmod_perf, label vm): builds
# dtrace.ko and dt_perf.ko (kmod/perf) against the guest kernel's headers,
# boots the guest once (two CPUs) and runs tests/vm/kmod-perf-guest.sh:
# every firing of the benchmark's loop is counted by `@ = count()` through
# bin/dtrace on the kmod engine. Timings are bench/vm-bench.sh's business.
#
# Usage: kmod-perf-test.sh WORKDIR DTRACE_BINARY
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
dtrace=$2
[ -x "$dtrace" ] || vm_fail "no dtrace at $dtrace"

vm_kbuild "$top/kmod/core" "$vm_work/build/core" DTRACE_TOP="$top"
vm_kbuild "$top/kmod/perf" "$vm_work/build/perf" DTRACE_TOP="$top" \
	KBUILD_EXTRA_SYMBOLS="$vm_work/build/core/Module.symvers"
mods=$vm_work/modules
mkdir -p "$mods"
cp "$vm_work/build/core/dtrace.ko" "$vm_work/build/perf/dt_perf.ko" "$mods/"

vm_run 0 -c 2 -t 600 bash "$top/tests/vm/kmod-perf-guest.sh" "$dtrace" "$mods"
cat "$vm_out"
vm_expect "$vm_out" '^ALL DONE$'
vm_expect "$vm_out" '^kmod perf: 0 failed$'
if grep -q '^not ok' "$vm_out"; then
	vm_fail "a dt_perf check failed"
fi
echo "PASS: kmod_perf"
