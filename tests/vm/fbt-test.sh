#!/usr/bin/env bash
# The fbt provider on both engines (ctest vm.fbt, label vm): builds
# dtrace.ko, dtrace_fbt.ko (plugins/fbt/kernel), dtrace_profile.ko and
# dtrace_syscall.ko (kernel stacks at system call probes beside fbt's) for the
# guest, boots it once (one CPU) and runs tests/vm/fbt-guest.sh for the kmod
# engine, then for the bpf engine: entry counts of a known workload,
# return values, typed arguments, a module's functions (and one unloaded
# while traced), large globs, and a torture of consumers started and
# killed while `dtrace -l` runs. The torture lasts DTRACE_VM_FBT_TORTURE
# seconds on each engine (default 60: two minutes in all, in CI; 300 for
# the ten-minute run). Any oops, WARN or lockup in the guest fails the test
# (tools/vm/run.sh).
#
# DTRACE_VM_FBT_ENGINES (default "kmod bpf") names the engines to run:
# vm.fbt612 runs "bpf" alone on Debian 12's 6.12 kernel (DTRACE_VM_KREL=6.12,
# its torture on fbt::[a-m]*:entry), whose fprobes give the bpf engine kprobe_multi
# (DTRACE_VM_FBT_MODE=multi: fbt-guest.sh section 5b alone, counts, return
# values and globs through it with their attach times; multi-bench adds
# fbt:::entry and bpftrace's kprobe: globs, for docs/perf.md).
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
torture=${DTRACE_VM_FBT_TORTURE:-60}
# DTRACE_VM_FBT_GLOB (e.g. 'fbt::a*:entry') replaces the torture's glob on both
# engines (kmod: fbt::[a-m]*:entry, bpf: fbt::vfs_[a-m]*:entry) and is a case of its own.
[[ $torture =~ ^[0-9]+$ ]] || vm_fail "DTRACE_VM_FBT_TORTURE must be a number of seconds"

engines=${DTRACE_VM_FBT_ENGINES:-kmod bpf}
mods=$vm_work/modules
mkdir -p "$mods"
if [[ " $engines " == *" kmod "* ]]; then
	vm_kbuild "$top/kmod/core" "$vm_work/build/core" DTRACE_TOP="$top"
	cp "$vm_work/build/core/dtrace.ko" "$mods/"
	for p in fbt profile syscall; do
		vm_kbuild "$top/plugins/$p/kernel" "$vm_work/build/$p" DTRACE_TOP="$top" \
			KBUILD_EXTRA_SYMBOLS="$vm_work/build/core/Module.symvers"
		cp "$vm_work/build/$p/dtrace_$p.ko" "$mods/"
	done
fi
big=${DTRACE_VM_FBT_GLOB:-}
vm_run 0 -t $((1500 + 2 * torture)) bash -c \
	'for e in $6; do FBT_MODE=$7 bash "$1" "$e" "$2" "$3" "$4" "$5"; done' \
	guest "$top/tests/vm/fbt-guest.sh" "$dtrace" "$mods" "$torture" "$big" "$engines" \
	"${DTRACE_VM_FBT_MODE:-}"
cat "$vm_out"
for e in $engines; do
	vm_expect "$vm_out" "^FBT $e DONE\$"
done
if grep -q '^not ok' "$vm_out"; then
	vm_fail "$(grep -c '^not ok' "$vm_out") fbt checks failed on $vm_krel"
fi
echo "PASS: fbt"
