#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build dtrace.ko and every provider's kernel half (plugins/*/kernel) with
# kbuild against one kernel's build directory, into the layout the kmod
# engine loads from (core/engine/kmod/modules.hpp):
#
#   OUT/<release>/dtrace.ko, dtrace_<provider>.ko ...
#   OUT/<release>/Module.symvers   the core's exported symbols, for
#                                  providers built out of tree
#                                  (KBUILD_EXTRA_SYMBOLS, docs/plugins.md)
#
# <release> is the kernel's (include/generated/utsrelease.h), what
# `uname -r` says when it runs. Sources are copied to SCRATCH (default a
# temporary directory) so the tree stays clean.
#
# Usage: build-modules.sh KDIR OUT [SCRATCH]
#   KDIR  e.g. /lib/modules/$(uname -r)/build (the `kmod` CMake target's
#         default), or the VM tier's unpacked Debian headers
# Exit status: 0, or 1 with make's output of the module that failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { echo "usage: build-modules.sh KDIR OUT [SCRATCH]" >&2; exit 1; }
kdir=$1
out=$2
uts=$kdir/include/generated/utsrelease.h
rel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$uts" 2>/dev/null || true)
[ -n "$rel" ] || { echo "build-modules.sh: no kernel build directory at $kdir ($uts)" >&2; exit 1; }
scratch=${3:-}
if [ -z "$scratch" ]; then
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-kbuild.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$out/$rel" "$scratch"
# Absolute: kbuild runs in KDIR, where KBUILD_EXTRA_SYMBOLS is read (DKMS
# passes a relative OUT).
dest=$(cd "$out/$rel" && pwd)

kbuild() { # kbuild SRC NAME [MAKE_ARG...]
	local src=$1 name=$2
	shift 2
	rm -rf "${scratch:?}/$name"
	mkdir -p "$scratch/$name"
	cp -a "$src/." "$scratch/$name/"
	if ! make -C "$kdir" M="$scratch/$name" DTRACE_TOP="$top" "$@" modules \
		>"$scratch/$name.log" 2>&1; then
		cat "$scratch/$name.log" >&2
		echo "build-modules.sh: building $src for $rel failed" >&2
		exit 1
	fi
	cp "$scratch/$name"/*.ko "$dest/"
}

kbuild "$top/kmod/core" core
cp "$scratch/core/Module.symvers" "$dest/Module.symvers"
for k in "$top"/plugins/*/kernel; do
	[ -f "$k/Kbuild" ] || continue
	kbuild "$k" "$(basename "$(dirname "$k")")" KBUILD_EXTRA_SYMBOLS="$dest/Module.symvers"
done
echo "$dest: $(cd "$dest" && echo *.ko)"
