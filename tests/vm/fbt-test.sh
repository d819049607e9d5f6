#!/usr/bin/env bash
# The fbt provider on the bpf engine (ctest vm.fbt, label vm; fbt has no
# kernel half yet, docs/plugins.md): boots the guest once (one CPU) and
# runs tests/vm/fbt-guest.sh for the bpf engine: entry counts of a known workload,
# return values, typed arguments, a module's functions (and one unloaded
# while traced), large globs, and a torture of consumers started and
# killed while `dtrace -l` runs. The torture lasts DTRACE_VM_FBT_TORTURE
# seconds (default 120; 600 for the long run). Any oops, WARN or lockup in the guest fails the test
# (tools/vm/run.sh).
#
# Usage: fbt-test.sh WORKDIR DTRACE_BINARY
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
dtrace=$2
[ -x "$dtrace" ] || vm_fail "no dtrace at $dtrace"
plugdir=$(dirname "$dtrace")/../lib/dtrace/plugins
[ -f "$plugdir/dt_fbt.so" ] || vm_fail "no fbt plugin in $plugdir (build dt_fbt)"
torture=${DTRACE_VM_FBT_TORTURE:-120}
[[ $torture =~ ^[0-9]+$ ]] || vm_fail "DTRACE_VM_FBT_TORTURE must be a number of seconds"

mods=$vm_work/modules # the bpf engine loads none
mkdir -p "$mods"
vm_run 0 -t $((900 + torture)) bash "$top/tests/vm/fbt-guest.sh" bpf "$dtrace" "$mods" "$torture"
cat "$vm_out"
vm_expect "$vm_out" '^FBT bpf DONE$'
if grep -q '^not ok' "$vm_out"; then
	vm_fail "$(grep -c '^not ok' "$vm_out") fbt checks failed on $vm_krel"
fi
echo "PASS: fbt"
