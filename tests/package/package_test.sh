#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian packages (cmake/DtracePackaging.cmake): `cpack -G DEB` of this
# build makes dtrace_*.deb and dtrace-dkms_*.deb; dtrace's installs into a
# scratch root with `dpkg --root` and runs from there, finding its own
# libdtrace, plugins and D library under that root; its man page renders;
# dtrace-dkms holds the module sources with a dkms.conf naming every
# module that the sources' Kbuild files build.
#
# Usage: package_test.sh <build dir> [cpack]
set -euo pipefail
build=$(cd "${1:?usage: package_test.sh <build dir> [cpack]}" && pwd)
cpack=${2:-cpack}
for t in dpkg dpkg-deb man file; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
unset DTRACE_PLUGIN_PATH DTRACE_KMOD_DIR

echo "== cpack -G DEB"
start=$SECONDS
(cd "$build" && "$cpack" -G DEB -B "$tmp/pkgs") >"$tmp/cpack.log" 2>&1 ||
	{ cat "$tmp/cpack.log" >&2; fail "cpack -G DEB failed"; }
echo "   $((SECONDS - start)) s"
shopt -s nullglob
debs=("$tmp"/pkgs/dtrace_*.deb)
dkms=("$tmp"/pkgs/dtrace-dkms_*_all.deb)
shopt -u nullglob
[ ${#debs[@]} = 1 ] || { ls "$tmp/pkgs" >&2; fail "no single dtrace_*.deb"; }
[ ${#dkms[@]} = 1 ] || { ls "$tmp/pkgs" >&2; fail "no single dtrace-dkms_*_all.deb"; }
deb=${debs[0]}
dkms=${dkms[0]}
echo "   $(basename "$deb") $(du -k "$deb" | cut -f1) KiB, $(basename "$dkms")"

echo "== contents"
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$tmp/deb.list"
for f in ./usr/bin/dtrace ./usr/lib/libdtrace.so ./usr/lib/dtrace/plugins/dt_syscall.so \
	./usr/lib/dtrace/plugins/dt_profile.so ./usr/lib/dtrace/procfs.d \
	./usr/share/man/man1/dtrace.1.gz ./usr/share/doc/dtrace/copyright \
	./usr/include/dtrace/plugin.h; do
	grep -qxF -- "$f" "$tmp/deb.list" || grep -qxF -- "${f}.0" "$tmp/deb.list" ||
		fail "$(basename "$deb") lacks $f"
done
if grep -q '^\./usr/src/' "$tmp/deb.list"; then fail "dtrace ships the module sources"; fi
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libpoco libelf libbpf; do
	grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
[ "$(dpkg-deb -f "$dkms" Depends)" != "" ] && dpkg-deb -f "$dkms" Depends | grep -q dkms ||
	fail "dtrace-dkms does not depend on dkms"

echo "== dpkg --root"
[ "$(id -u)" = 0 ] || { echo "SKIP: dpkg --root runs the maintainer scripts in a chroot: needs root"; exit 77; }
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && file -L "$busybox" | grep -q 'statically linked' ||
	{ echo "SKIP: no static busybox (busybox-static) for the scratch root's /bin/sh"; exit 77; }
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers" \
	"$root/bin" "$root/sbin" "$root/etc" "$root/tmp"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# dpkg runs the package's postinst (ldconfig, which CPack adds for
# libdtrace) chrooted into the root: a shell and ldconfig are all it needs
# there. Both static: nothing of the host leaks in.
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
file -L "$ldconfig" | grep -q 'static' || { echo "SKIP: $ldconfig is not static"; exit 77; }
cp "$ldconfig" "$root/sbin/ldconfig"
# --force-depends: the scratch root has none of the libraries' packages
# (the host's libraries are the ones loaded).
dpkg --root="$root" --log=/dev/null --force-depends -i "$deb" \
	>"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log" >&2; fail "dpkg --root -i failed"; }
[ -f "$root/etc/ld.so.cache" ] || fail "the postinst's ldconfig did not run in the root"
dpkg --root="$root" -s dtrace | grep -q '^Status: install ok installed' ||
	fail "dtrace is not installed in the scratch root"
dtrace=$root/usr/bin/dtrace
lib=$(ldd "$dtrace" | awk '/libdtrace\.so/ { print $3 }')
lib=$(realpath -m "$lib")
case "$lib" in "$root"/usr/lib/*) ;; *) fail "the installed dtrace loads libdtrace from '$lib'" ;; esac

out=$("$dtrace" -n 'BEGIN { exit(0); }' 2>"$tmp/err") || { cat "$tmp/err" >&2; fail "dtrace -n 'BEGIN { exit(0); }' failed"; }
grep -q ':BEGIN' <<<"$out" || fail "no BEGIN line: $out"
grep -qx "dtrace: description 'BEGIN ' matched 1 probe" "$tmp/err" || fail "stderr: $(cat "$tmp/err")"
# Its plugins come from the root, and its D library compiles.
DTRACE_DEBUG=1 "$dtrace" -l -n syscall::openat:entry >"$tmp/list" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "dtrace -l -n syscall::openat:entry failed"; }
grep -q ' syscall .* openat entry' "$tmp/list" || fail "openat:entry not listed: $(cat "$tmp/list")"
grep -q "$root/usr/lib/dtrace/plugins/dt_syscall.so" "$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "dt_syscall.so was not opened from the scratch root"; }
"$dtrace" -e -n 'BEGIN { trace(curpsinfo->pr_pid); }' 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "the D library (procfs.d) does not compile from the scratch root"; }

echo "== man -l"
man=$root/usr/share/man/man1/dtrace.1.gz
MANWIDTH=80 man --warnings -l "$man" >"$tmp/man.txt" 2>"$tmp/man.err" || fail "man -l failed"
[ ! -s "$tmp/man.err" ] || { cat "$tmp/man.err" >&2; fail "man -l: groff warnings"; }
for h in NAME SYNOPSIS DESCRIPTION OPTIONS PROVIDERS ENGINES 'OUTPUT FORMATS' 'EXIT STATUS' EXAMPLES; do
	grep -qx "$h" "$tmp/man.txt" || fail "the man page has no $h section"
done
grep -q 'metrics=address:port' "$tmp/man.txt" || fail "the man page does not document -x metrics"

echo "== dtrace-dkms"
dpkg-deb -x "$dkms" "$tmp/dkms"
src=$(echo "$tmp"/dkms/usr/src/dtrace-*)
[ -f "$src/dkms.conf" ] || fail "no dkms.conf in $(basename "$dkms")"
# Every module the Kbuild files make is in dkms.conf, the core first.
built=$(kernelver=KVER bash -c '. "$1"; for i in "${!BUILT_MODULE_NAME[@]}"; do
	echo "$i ${BUILT_MODULE_NAME[$i]} ${BUILT_MODULE_LOCATION[$i]} ${DEST_MODULE_LOCATION[$i]}"
done; echo "MAKE ${MAKE[0]}"' _ "$src/dkms.conf")
echo "$built" | sed 's/^/   /'
grep -qx '0 dtrace out/KVER /updates/dkms' <<<"$built" || fail "dtrace.ko is not module 0"
grep -qx 'MAKE bash kmod/build-modules.sh ${kernel_source_dir} out' <<<"$built" ||
	grep -q '^MAKE bash kmod/build-modules.sh ' <<<"$built" || fail "MAKE[0]: $built"
for kb in "$src"/kmod/core/Kbuild "$src"/plugins/*/kernel/Kbuild; do
	for m in $(sed -n 's/^obj-m[ :+]*=\(.*\)$/\1/p' "$kb" | tr ' ' '\n' | sed -n 's/\.o$//p'); do
		grep -q " $m out/KVER /updates/dkms$" <<<"$built" || fail "dkms.conf lacks $m ($kb)"
	done
done
[ -x "$src/kmod/build-modules.sh" ] || fail "no executable kmod/build-modules.sh"
[ -f "$src/core/dif/dif_emulate.c" ] || fail "no DIF VM sources (core/dif)"
# The listing first: `grep -q` in the pipe would exit at its match and tar,
# still writing, die of SIGPIPE, which pipefail makes a failure.
ctrl=$(dpkg-deb --ctrl-tarfile "$dkms" | tar -t)
for f in postinst prerm; do
	grep -qx "./$f" <<<"$ctrl" || fail "dtrace-dkms has no $f"
done
echo "PASS: the Debian packages install and run from a scratch root"
