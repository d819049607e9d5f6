#!/usr/bin/env bash
# The kernel core's VM test (ctest vm.kmod, label vm): builds dtrace.ko,
# dt_test.ko and dtrace_syscall.ko against the guest kernel's headers, boots the guest once (two
# CPUs, so buffer switches cross CPUs) and runs tests/vm/kmod-guest.sh
# there with the host-built kmod_client. Any oops, WARN or lockup in the
# guest fails the test (tools/vm/run.sh).
#
# Usage: kmod-test.sh WORKDIR KMOD_CLIENT
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
client=$2
[ -x "$client" ] || vm_fail "no kmod_client at $client"

vm_kbuild "$top/kmod/core" "$vm_work/kmod/core" DTRACE_TOP="$top"
vm_kbuild "$top/kmod/test" "$vm_work/kmod/test" DTRACE_TOP="$top" \
	KBUILD_EXTRA_SYMBOLS="$vm_work/kmod/core/Module.symvers"
vm_kbuild "$top/plugins/syscall/kernel" "$vm_work/kmod/syscall" DTRACE_TOP="$top" \
	KBUILD_EXTRA_SYMBOLS="$vm_work/kmod/core/Module.symvers"

vm_run 0 -c 2 -t 900 bash "$top/tests/vm/kmod-guest.sh" "$vm_work/kmod" "$client"
cat "$vm_out"
vm_expect "$vm_out" '^kmod_client: [0-9]+ passed, 0 failed$'
vm_expect "$vm_out" '^open: command exited [1-9]'
vm_expect "$vm_out" '^busy: command exited [1-9]'
vm_expect "$vm_out" '^churn: 20 enable/trace/close cycles of syscall:::$'
vm_expect "$vm_out" '^list: 20 listings, [0-9]+ probes$'
vm_expect "$vm_out" '^step: deadman$'
vm_expect "$vm_out" '^step: syscall provider$'
vm_expect "$vm_out" '^cycles: 100$'
vm_expect "$vm_out" '^ALL DONE$'
vm_expect "$vm_log" 'dtrace: loaded'
if grep -q '^not ok' "$vm_out"; then
	vm_fail "a kmod_client check failed"
fi
echo "PASS: kmod"
