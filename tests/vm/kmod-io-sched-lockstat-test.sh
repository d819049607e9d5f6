#!/usr/bin/env bash
# The io, sched and lockstat providers' kernel halves on the kmod engine
# (ctest vm.kmod_io_sched_lockstat, label vm): builds dtrace.ko,
# dtrace_io.ko, dtrace_sched.ko and dtrace_lockstat.ko against the guest
# kernel's headers, boots the guest once (two CPUs) and runs
# tests/vm/kmod-io-sched-lockstat-guest.sh, which runs the
# host-built bin/dtrace with -x engine=kmod. Any oops, WARN or lockup in the
# guest fails the test (tools/vm/run.sh).
#
# Usage: kmod-io-sched-lockstat-test.sh WORKDIR DTRACE_BINARY
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
dtrace=$2
[ -x "$dtrace" ] || vm_fail "no dtrace at $dtrace"
plugdir=$(dirname "$dtrace")/../lib/dtrace/plugins
for p in io sched lockstat; do
	[ -f "$plugdir/dt_$p.so" ] || vm_fail "no $p plugin in $plugdir (build dt_$p)"
done

vm_kbuild "$top/kmod/core" "$vm_work/build/core" DTRACE_TOP="$top"
mods=$vm_work/modules
mkdir -p "$mods"
cp "$vm_work/build/core/dtrace.ko" "$mods/"
for p in io sched lockstat; do
	vm_kbuild "$top/plugins/$p/kernel" "$vm_work/build/$p" DTRACE_TOP="$top" \
		KBUILD_EXTRA_SYMBOLS="$vm_work/build/core/Module.symvers"
	cp "$vm_work/build/$p/dtrace_$p.ko" "$mods/"
done

vm_run 0 -c 2 -t 600 bash "$top/tests/vm/kmod-io-sched-lockstat-guest.sh" "$dtrace" "$mods"
cat "$vm_out"
vm_expect "$vm_out" '^IO SCHED LOCKSTAT DONE$'
if grep -q '^not ok' "$vm_out"; then
	vm_fail "an io, sched or lockstat kmod check failed"
fi
echo "PASS: kmod_io_sched_lockstat"
