#!/usr/bin/env bash
# The golden suite on the kmod engine (ctest vm.golden_kmod, label vm):
# builds dtrace.ko and the provider modules for the guest's kernel
# (kmod/build-modules.sh), boots the guest once (two CPUs) and runs the
# host-built golden_tests there with DTRACE_GOLDEN_ENGINE=kmod: every case
# runs with -x engine=kmod and must print what it prints on the user
# engine, byte for byte, except the cases in tests/golden/engine-kmod.skip
# (each skipped with its reason). Any oops or WARN in the guest fails it.
#
# Which cases: under TCG emulation a case costs 3-9 s (dtrace starts, loads
# every plugin, compiles, loads the program into the kernel), so all ~385
# take 30-40 minutes, far over the VM tier's budget. AREAS (default: the
# areas whose behaviour is the engine's -- actions, aggregations, buffers,
# dtrace_provider, options, printf, profile, speculation -- and those that
# run the kernel's DIF VM on loads, strings and dynamic variables --
# pointers, strings, variables; 176 cases, 6-12 minutes by the host's
# load) chooses the case areas (tests/golden/cases/<area>) to run; "all"
# runs every case. The areas left out (cli, definitions, errors, structs,
# translators, types: 210 cases, 153 of them compile-time errors) are the
# compiler's and the consumer's, identical on every engine; the run
# prints how many cases it left out.
#
# Usage: golden-kmod-test.sh WORKDIR GOLDEN_TESTS_BINARY [AREA... | all]
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
golden=$2
shift 2
areas=("$@")
[ ${#areas[@]} -gt 0 ] || areas=(actions aggregations buffers dtrace_provider options pointers printf profile speculation strings variables)
[ -x "$golden" ] || vm_fail "no golden_tests at $golden"
if [ "${areas[*]}" = all ]; then
	filter='*'
else
	filter=$(printf '*/%s_*:' "${areas[@]}")
	filter=${filter%:}
fi
total=$(find "$top/tests/golden/cases" -name '*.d' \( -name 'tst.*' -o -name 'err.*' \) | wc -l)
chosen=$("$golden" --gtest_list_tests --gtest_filter="$filter" | grep -c '^  ')
echo "golden on kmod: areas ${areas[*]}: $chosen of $total cases ($((total - chosen)) left out)"

MAKEFLAGS=-j2 nice "$top/kmod/build-modules.sh" \
	"$DTRACE_VM_CACHE/root/usr/src/linux-headers-$vm_krel" "$vm_work/modules" \
	"$vm_work/kbuild" >"$vm_work/modules.log" 2>&1 ||
	{ cat "$vm_work/modules.log"; vm_fail "building the modules for $vm_krel failed"; }

cat >"$vm_work/guest.sh" <<GUEST
export DTRACE_GOLDEN_ENGINE=kmod DTRACE_KMOD_DIR=$vm_work/modules/$vm_krel
start=\$(date +%s)
"$golden" --gtest_brief=1 --gtest_filter='$filter'
rc=\$?
echo "golden_tests exited \$rc after \$(( \$(date +%s) - start )) s"
GUEST
vm_run 0 -c 2 -t 2100 bash "$vm_work/guest.sh"
cat "$vm_out"
vm_expect "$vm_out" '^\[  PASSED  \] [0-9]+ tests?\.$'
vm_expect "$vm_out" '^golden_tests exited 0 after [0-9]+ s$'
echo "PASS: golden_kmod"
