#!/usr/bin/env bash
# The kmod engine through the real CLI (ctest vm.kmod_engine, label vm):
# builds dtrace.ko, dtrace_syscall.ko, dtrace_profile.ko and dtrace_proc.ko
# against the guest kernel's headers into one module directory, boots the
# guest once (two CPUs) and runs tests/vm/kmod-engine-guest.sh, then
# tests/vm/kmod-providers-guest.sh (profile, proc, `dtrace -l` from the
# kernel), tests/vm/kmod-pid-guest.sh (pid and USDT through
# dtrace_pid.ko) and tests/vm/kmod-robust-guest.sh (deadman, timers at GO,
# buffer policies, user stacks, built-ins, a torture of DTRACE_VM_TORTURE_SECS
# seconds, default 120) there, which run the host-built bin/dtrace with -x engine=kmod
# and DTRACE_KMOD_DIR pointing at that directory: dtrace loads the modules
# itself. Any oops, WARN or lockup in the guest fails the test
# (tools/vm/run.sh).
#
# Usage: kmod-engine-test.sh WORKDIR DTRACE_BINARY
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
dtrace=$2
[ -x "$dtrace" ] || vm_fail "no dtrace at $dtrace"
plugdir=$(dirname "$dtrace")/../lib/dtrace/plugins
[ -f "$plugdir/dt_syscall.so" ] || vm_fail "no syscall plugin in $plugdir (build dt_syscall)"

vm_kbuild "$top/kmod/core" "$vm_work/build/core" DTRACE_TOP="$top"
vm_kbuild "$top/plugins/syscall/kernel" "$vm_work/build/syscall" DTRACE_TOP="$top" \
	KBUILD_EXTRA_SYMBOLS="$vm_work/build/core/Module.symvers"
mods=$vm_work/modules
mkdir -p "$mods"
cp "$vm_work/build/core/dtrace.ko" "$vm_work/build/syscall/dtrace_syscall.ko" "$mods/"
# Every provider kernel half (kmod-providers-guest.sh; `dtrace -l` on the kmod
# engine loads each one).
for p in profile proc tcp ip udp io sched lockstat pid fbt; do
	vm_kbuild "$top/plugins/$p/kernel" "$vm_work/build/$p" DTRACE_TOP="$top" \
		KBUILD_EXTRA_SYMBOLS="$vm_work/build/core/Module.symvers"
	cp "$vm_work/build/$p/dtrace_$p.ko" "$mods/"
done
for p in profile proc tcp ip udp io sched lockstat pid fbt usdt; do
	[ -f "$plugdir/dt_$p.so" ] || vm_fail "no $p plugin in $plugdir (build dt_$p)"
done

# kmod-robust-guest.sh's ustack() target, with frame pointers.
cc -O0 -fno-omit-frame-pointer -o "$vm_work/ustk" "$top/tests/vm/ustk.c" ||
	vm_fail "building tests/vm/ustk.c failed"
# kmod-pid-guest.sh's targets: known calls, and USDT probes from this
# dtrace's own -h header.
cc -O2 -o "$vm_work/pid_calls" "$top/plugins/pid/tests/pid_calls.c" ||
	vm_fail "building plugins/pid/tests/pid_calls.c failed"
"$dtrace" -h -s "$top/plugins/usdt/tests/shop.d" -o "$vm_work/usdt_shop.h" ||
	vm_fail "dtrace -h -s plugins/usdt/tests/shop.d failed"
cc -O2 -I"$vm_work" -o "$vm_work/usdt_target" "$top/plugins/usdt/tests/usdt_target.c" ||
	vm_fail "building plugins/usdt/tests/usdt_target.c failed"
"$dtrace" -h -s "$top/plugins/usdt/tests/wide.d" -o "$vm_work/usdt_wide.h" ||
	vm_fail "dtrace -h -s plugins/usdt/tests/wide.d failed"
cc -O2 -I"$vm_work" -o "$vm_work/usdt_wide" "$top/plugins/usdt/tests/usdt_wide.c" ||
	vm_fail "building plugins/usdt/tests/usdt_wide.c failed"
# Its torture runs DTRACE_VM_TORTURE_SECS seconds (default 120).
torture=${DTRACE_VM_TORTURE_SECS:-120}
[[ $torture =~ ^[0-9]+$ ]] || vm_fail "DTRACE_VM_TORTURE_SECS must be a number of seconds"

# One boot: the engine's checks, then the providers' (which reload what
# the first script unloaded at its end), then the robustness checks and
# the torture (kmod-robust-guest.sh).
vm_run 0 -c 2 -t $((1200 + torture)) bash -c \
	'bash "$1" "$4" "$5"; bash "$2" "$4" "$5"; bash "$8" "$4" "$5" "$9" "${10}" "${11}";
	 bash "$3" "$4" "$5" "$6" "$7"' guest \
	"$top/tests/vm/kmod-engine-guest.sh" "$top/tests/vm/kmod-providers-guest.sh" \
	"$top/tests/vm/kmod-robust-guest.sh" "$dtrace" "$mods" "$vm_work/ustk" "$torture" \
	"$top/tests/vm/kmod-pid-guest.sh" "$vm_work/pid_calls" "$vm_work/usdt_target" \
	"$vm_work/usdt_wide"
cat "$vm_out"
vm_expect "$vm_out" '^ALL DONE$'
vm_expect "$vm_out" '^PROVIDERS DONE$'
vm_expect "$vm_out" '^PID DONE$'
vm_expect "$vm_out" '^ROBUST DONE$'
if grep -q '^not ok' "$vm_out"; then
	vm_fail "a kmod engine check failed"
fi
echo "PASS: kmod_engine"
