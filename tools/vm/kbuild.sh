#!/usr/bin/env bash
# Build an out-of-tree kernel module for the VM tier's kernel.
#
# Usage: kbuild.sh SRC_DIR OUT_DIR [MAKE_ARG...]
#   Copies SRC_DIR (its Kbuild/Makefile and sources) into OUT_DIR, so the
#   source tree stays clean, and runs there
#     make -C <cache>/root/usr/src/linux-headers-<rel> M=OUT_DIR modules MAKE_ARG...
#   against the headers fetch-kernel.sh unpacked ($DTRACE_VM_CACHE, default
#   <top>/build/vm). The .ko files end up in OUT_DIR. Exit status: make's, or 1.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: kbuild.sh SRC_DIR OUT_DIR [MAKE_ARG...]" >&2; exit 1; }
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
export DTRACE_VM_CACHE=${DTRACE_VM_CACHE:-$top/build/vm${DTRACE_VM_KREL:+-$DTRACE_VM_KREL}}
krel=$("$top/tools/vm/fetch-kernel.sh")
kdir=$DTRACE_VM_CACHE/root/usr/src/linux-headers-$krel
[ "$src" = "$out" ] || cp -a "$src/." "$out/"
# Kernels with CONFIG_DEBUG_INFO_BTF_MODULES (6.12) give each module BTF
# with pahole; without pahole the modules are built without it (they load
# the same, fbt and bpftrace just cannot type their functions).
btf=()
command -v pahole >/dev/null || btf=(CONFIG_DEBUG_INFO_BTF_MODULES=)
exec make -C "$kdir" M="$out" modules "${btf[@]}" "$@"
