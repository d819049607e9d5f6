#!/usr/bin/env bash
# The dtrace-dkms package's sources built by DKMS (ctest vm.dkms, label vm):
# the "dkms" install component (what dtrace-dkms_*.deb holds under
# /usr/src/dtrace-<version>, with its dkms.conf) is added to a scratch DKMS
# tree and built with `dkms build` for the guest's kernel, against its
# headers; the guest then loads the modules DKMS built through bin/dtrace
# on the kmod engine (dkms-guest.sh). `dkms install` is not run: its depmod
# wants the kernel's /lib/modules, which this machine has not.
#
# Usage: dkms-test.sh WORKDIR DTRACE_BINARY BUILD_DIR CMAKE
# Exit 0 pass, 1 fail, 77 skip (printed reason).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
dtrace=$2
build=$3
cmake=$4
command -v dkms >/dev/null || vm_skip "dkms is not installed (tools/install-deps.sh)"
kdir=$DTRACE_VM_CACHE/root/usr/src/linux-headers-$vm_krel
[ -d "$kdir" ] || vm_fail "no kernel headers at $kdir"

"$cmake" --install "$build" --component dkms --prefix "$vm_work/usr" >"$vm_work/install.log" 2>&1 ||
	{ cat "$vm_work/install.log"; vm_fail "cmake --install --component dkms failed"; }
src=$(echo "$vm_work"/usr/src/dtrace-*)
[ -f "$src/dkms.conf" ] || vm_fail "no dkms.conf in $src"
ver=${src##*/dtrace-}
mkdir -p "$vm_work/dkms" "$vm_work/lib"
start=$SECONDS
dk=(dkms --dkmstree "$vm_work/dkms" --sourcetree "$vm_work/usr/src" --installtree "$vm_work/lib")
"${dk[@]}" add -m dtrace -v "$ver" >"$vm_work/dkms-add.log" 2>&1 ||
	{ cat "$vm_work/dkms-add.log"; vm_fail "dkms add failed"; }
if ! nice "${dk[@]}" build -m dtrace -v "$ver" -k "$vm_krel" --kernelsourcedir "$kdir" \
	>"$vm_work/dkms-build.log" 2>&1; then
	cat "$vm_work/dkms-build.log" "$vm_work/dkms/dtrace/$ver/build/make.log"
	vm_fail "dkms build failed"
fi
"${dk[@]}" status -m dtrace -v "$ver" | grep -q "$vm_krel.*: built" ||
	vm_fail "dkms status: $("${dk[@]}" status -m dtrace -v "$ver")"
mods=$vm_work/dkms/dtrace/$ver/$vm_krel/$(uname -m)/module
want=$(kernelver=$vm_krel bash -c '. "$1"; echo "${BUILT_MODULE_NAME[@]}"' _ "$src/dkms.conf")
for m in $want; do
	[ -f "$mods/$m.ko" ] || vm_fail "DKMS did not build $m.ko (in $mods)"
done
echo "dkms built: $want ($((SECONDS - start)) s)"

# no_timer_check: a slow TCG host can fail the kernel's boot-time IO-APIC timer
# check ("IO-APIC + timer doesn't work!" panic), which says nothing of DKMS.
vm_run 0 -a no_timer_check -t 300 bash "$top/tests/vm/dkms-guest.sh" "$dtrace" "$mods"
cat "$vm_out"
vm_expect "$vm_out" '^ALL DONE$'
vm_expect "$vm_out" '^dkms: 0 failed$'
echo "PASS: dkms"
