#!/usr/bin/env bash
# The out-of-tree example provider's kernel half (ctest vm.kmod_sdk, label
# vm): everything built against an INSTALLED DTrace, as a third party would.
#
#   1. cmake --install BUILD_DIR --prefix WORKDIR/prefix: dtrace, the
#      plugins and the SDK, with the provider API at
#      include/dtrace/kmod/{dtrace/provider.h,uapi/dtrace/*.h}
#   2. dtrace.ko and the in-tree provider modules for the guest's kernel
#      into prefix/lib/dtrace/modules/<release>/ with the core's
#      Module.symvers: kmod/build-modules.sh, what the `kmod` target and
#      `cmake --install` do on a machine running that kernel
#   3. examples/hello-provider, copied out of the tree: the plugin with
#      CMake and find_package(DtraceSDK), the kernel half with its
#      Makefile (KDIR = the guest's headers, DTRACE_SDK = the prefix),
#      both installed into the prefix; no include path may lead into the
#      source tree
#   4. one guest boot (tests/vm/kmod-sdk-guest.sh): the prefix's dtrace
#      loads dtrace_hello.ko by itself and sees its probes fire
#
# Usage: kmod-sdk-test.sh WORKDIR BUILD_DIR [CMAKE] [GENERATOR]
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
vm_setup "$1"
build=$(cd "$2" && pwd)
cmake=${3:-cmake}
generator=${4:-Ninja}
prefix=$vm_work/prefix
kdir=$DTRACE_VM_CACHE/root/usr/src/linux-headers-$vm_krel

"$cmake" --install "$build" --prefix "$prefix" >"$vm_work/install.log" 2>&1 ||
	{ cat "$vm_work/install.log"; vm_fail "cmake --install $build failed"; }
for f in include/dtrace/kmod/dtrace/provider.h include/dtrace/kmod/uapi/dtrace/ioctl.h \
	include/dtrace/kmod/uapi/dtrace/dif.h; do
	[ -f "$prefix/$f" ] || vm_fail "the SDK lacks $f"
done

MAKEFLAGS=-j2 nice "$top/kmod/build-modules.sh" "$kdir" "$prefix/lib/dtrace/modules" \
	"$vm_work/kbuild" >"$vm_work/modules.log" 2>&1 ||
	{ cat "$vm_work/modules.log"; vm_fail "building the modules for $vm_krel failed"; }
mods=$prefix/lib/dtrace/modules/$vm_krel
[ -f "$mods/Module.symvers" ] && [ -f "$mods/dtrace.ko" ] ||
	vm_fail "no dtrace.ko and Module.symvers in $mods"

cp -r "$top/examples/hello-provider" "$vm_work/src"
rm -rf "$vm_work/src/build"
"$cmake" -S "$vm_work/src" -B "$vm_work/ebuild" -G "$generator" \
	-DCMAKE_PREFIX_PATH="$prefix" >"$vm_work/example.log" 2>&1 &&
	"$cmake" --build "$vm_work/ebuild" >>"$vm_work/example.log" 2>&1 &&
	"$cmake" --install "$vm_work/ebuild" --prefix "$prefix" >>"$vm_work/example.log" 2>&1 ||
	{ cat "$vm_work/example.log"; vm_fail "building the example's plugin failed"; }
[ -f "$prefix/lib/dtrace/plugins/dt_hello.so" ] || vm_fail "dt_hello.so not installed"

MAKEFLAGS=-j2 nice make -C "$vm_work/src/kernel" KDIR="$kdir" DTRACE_SDK="$prefix" install \
	>"$vm_work/kernel.log" 2>&1 ||
	{ cat "$vm_work/kernel.log"; vm_fail "building the example's kernel half failed"; }
[ -f "$mods/dtrace_hello.ko" ] || vm_fail "dtrace_hello.ko not installed into $mods"
# Its compiler flags name the prefix's headers and nothing of the tree.
cmd=$vm_work/src/kernel/.dtrace_hello.o.cmd
grep -q -- "-I$prefix/include/dtrace/kmod" "$cmd" ||
	vm_fail "dtrace_hello.o was not compiled with -I$prefix/include/dtrace/kmod"
for tree in "$top/kmod/" "$top/core/" "$top/examples/"; do
	if grep -q -F -- "$tree" "$cmd"; then
		cat "$cmd"
		vm_fail "dtrace_hello.o's compile command points into $tree"
	fi
done
echo "built: $(cd "$mods" && echo *.ko), against $vm_krel"

vm_run 0 -c 2 -t 600 bash "$top/tests/vm/kmod-sdk-guest.sh" "$prefix"
cat "$vm_out"
vm_expect "$vm_out" '^ALL DONE$'
vm_expect "$vm_out" '^kmod sdk: 0 failed$'
if grep -q '^not ok' "$vm_out"; then
	vm_fail "a check of the example provider failed"
fi
echo "PASS: kmod_sdk"
