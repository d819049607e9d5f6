#!/usr/bin/env bash
# The bpf engine on Debian's 6.1 kernel (ctest vm.bpf_engine, label vm):
# boots the guest once (two CPUs) and runs tests/vm/bpf-engine-guest.sh
# there, which runs the host-built bin/dtrace with -x engine=bpf (a few
# checked one-liners: copyinstr, the README's main command, profile on
# every CPU, a bad pointer's ERROR message), the engine's end-to-end tests
# (bpf_engine_cli_tests) and the golden suite on the bpf engine
# (golden_bpf_tests). The host runs a newer kernel: this is where BPF
# helpers, map types and verifier behaviour newer than 6.1 show up. Any
# oops, WARN or lockup in the guest fails the test (tools/vm/run.sh).
#
# Usage: bpf-engine-test.sh WORKDIR DTRACE_BINARY CLI_TESTS GOLDEN_BPF_TESTS
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
# DTRACE_VM_TIMEOUT overrides the guest's time limit (default 5400 s).
# DTRACE_VM_GOLDEN_FILTER, a --gtest_filter, chooses the golden cases. The
# whole suite takes 20-30 minutes under TCG, too long for every CI run, so
# the default is the areas where the engine does the work (as vm.golden_kmod
# does), and the strings area: the BPF library's string routines, the
# nearest to 6.1's verifier limits (512 bytes of combined stack); "*" runs
# everything.
default_filter='*actions_*:*aggregations_*:*buffers_*:*dtrace_provider_*:*options_*:*printf_*:*profile_*:*speculation_*:*strings_*'
echo "golden cases on the guest: ${DTRACE_VM_GOLDEN_FILTER:-$default_filter}"
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
dtrace=$2 cli=$3 golden=$4
for f in "$dtrace" "$cli" "$golden"; do
	[ -x "$f" ] || vm_fail "no executable $f (build it first)"
done
plugdir=$(dirname "$dtrace")/../lib/dtrace/plugins
for p in syscall profile proc; do
	[ -f "$plugdir/dt_$p.so" ] || vm_fail "no $p plugin in $plugdir (build dt_$p)"
done

vm_run 0 -c 2 -t "${DTRACE_VM_TIMEOUT:-5400}" bash "$top/tests/vm/bpf-engine-guest.sh" \
	"$dtrace" "$cli" "$golden" "${DTRACE_VM_GOLDEN_FILTER:-$default_filter}"
cat "$vm_out"
vm_expect "$vm_out" '^ALL DONE$'
if grep -q '^not ok' "$vm_out"; then
	vm_fail "$(grep -c '^not ok' "$vm_out") bpf engine checks failed on $vm_krel"
fi
echo "PASS: bpf_engine"
