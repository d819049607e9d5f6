#!/usr/bin/env bash
# Fetch Debian's stock amd64 kernel and its kbuild headers for the VM tier
# (docs/architecture.md §6) and unpack them into a cache; print the kernel release.
#
# Usage: fetch-kernel.sh [--print-root]
#   Cache: $DTRACE_VM_CACHE, default <top>/build/vm. Layout:
#     debs/                 the downloaded .debs
#     root/                 the packages unpacked (dpkg-deb -x), never installed:
#       boot/vmlinuz-<rel>  lib/modules/<rel>/ (with modules.dep)
#       usr/src/linux-headers-<rel>/  the kbuild dir for out-of-tree modules
#     kernel-release        <rel>, written last: its presence means "ready"
#   Kernel: the release that linux-image-amd64 depends on, or $DTRACE_VM_KREL
#   to pin one: a release (6.1.0-56-amd64, 6.12.117+deb12-amd64) or a series
#   (6.12: the newest 6.12 release apt knows, once; the cache then keeps it).
#   Package names: 6.1-style releases (<series>.0-<abi>-amd64) come as
#   linux-image-<rel>, linux-headers-<rel>, linux-headers-<abi>-common and
#   linux-kbuild-<series>; the backports' (<version>+deb12-amd64) as
#   linux-image-<rel>-unsigned (the signed one is the same kernel),
#   linux-headers-<rel>, linux-headers-<version>+deb12-common and
#   linux-kbuild-<version>+deb12.
#   With DTRACE_VM_KREL set and no DTRACE_VM_CACHE, the cache is
#   <top>/build/vm-<DTRACE_VM_KREL>, so that each kernel keeps its own.
# Idempotent: with a ready cache it prints the release without asking apt.
# Needs apt-get, dpkg-deb and depmod (kmod); runs `apt-get update` (root)
# only if apt does not know the packages. Exit 0 and the release on stdout,
# or nonzero with the reason on stderr.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${DTRACE_VM_CACHE:-$top/build/vm${DTRACE_VM_KREL:+-$DTRACE_VM_KREL}}
print_root=0
[ "${1:-}" = --print-root ] && print_root=1

say() { echo "fetch-kernel: $*" >&2; }
die() { say "$*"; exit 1; }

done_() {
	if [ $print_root -eq 1 ]; then echo "$cache/root"; else cat "$cache/kernel-release"; fi
	exit 0
}

mkdir -p "$cache"
# Several tests may ask at once: one fetch at a time.
exec 9>"$cache/.fetch.lock"
flock 9

# Is the cache's release the one asked for (a release, or one of a series)?
is_wanted() {
	case ${DTRACE_VM_KREL:-} in
	'') return 0 ;;
	*-amd64) [ "$1" = "$DTRACE_VM_KREL" ] ;;
	*) case $1 in "$DTRACE_VM_KREL".*) return 0 ;; *) return 1 ;; esac ;;
	esac
}
if [ -s "$cache/kernel-release" ] && is_wanted "$(cat "$cache/kernel-release")"; then
	done_
fi

for t in apt-get apt-cache dpkg-deb depmod; do
	command -v "$t" >/dev/null || die "$t not found (tools/install-deps.sh installs it)"
done

# The release linux-image-amd64 points at, e.g. 6.1.0-56-amd64.
resolve_release() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*-amd64\)$/\1/p' | head -n1
}
# The newest release of a series apt has an image and headers for, e.g.
# 6.12 -> 6.12.117+deb12-amd64.
resolve_series() {
	apt-cache search --names-only "^linux-headers-$1[.][0-9.]*[+]deb[0-9]*-amd64\$" 2>/dev/null |
		sed -n 's/^linux-headers-\([^ ]*-amd64\) .*/\1/p' | sort -V |
		while read -r r; do
			apt-cache show "linux-image-$r-unsigned" >/dev/null 2>&1 && echo "$r"
		done | tail -n1
}
apt_update() {
	[ "$(id -u)" -eq 0 ] || die "$1; run 'apt-get update' as root"
	say "$1: apt-get update"
	apt-get update -qq >&2 || die "apt-get update failed"
}

debs=$cache/debs
mkdir -p "$debs"
# download: sets krel and pkgs, and gets the .debs not in $debs yet.
download() {
	krel=${DTRACE_VM_KREL:-}
	case $krel in
	'') krel=$(resolve_release) ;;
	*-amd64) ;;
	*) krel=$(resolve_series "$krel") ;;
	esac
	[ -n "$krel" ] || return 1
	case $krel in
	*-amd64) ;;
	*) die "unexpected kernel release '$krel'" ;;
	esac
	local abi series p need=()
	abi=${krel%-amd64}                    # 6.1.0-56, 6.12.117+deb12
	series=$(echo "$abi" | cut -d. -f1,2) # 6.1, 6.12
	case $abi in
	*+*) pkgs=("linux-image-$krel-unsigned" "linux-headers-$krel" "linux-headers-$abi-common" "linux-kbuild-$abi") ;;
	*) pkgs=("linux-image-$krel" "linux-headers-$krel" "linux-headers-$abi-common" "linux-kbuild-$series") ;;
	esac
	for p in "${pkgs[@]}"; do
		ls "$debs/${p}_"*.deb >/dev/null 2>&1 || need+=("$p")
	done
	[ ${#need[@]} -gt 0 ] || return 0
	say "downloading ${need[*]}"
	# apt's _apt sandbox user cannot write into a root-owned cache: that
	# warning is expected and harmless.
	(cd "$debs" && apt-get download -qq "${need[@]}" 2>&1 | grep -v 'unsandboxed as root' >&2) || true
	for p in "${need[@]}"; do
		ls "$debs/${p}_"*.deb >/dev/null 2>&1 || return 1
	done
}
# Stale or missing apt lists (a release gone from the mirror): update once.
if ! download; then
	apt_update "could not resolve or download the kernel packages"
	download || die "could not download ${pkgs[*]:-linux-image-amd64}"
fi

root=$cache/root
rm -rf "$root.new"
mkdir -p "$root.new"
for p in "${pkgs[@]}"; do
	deb=$(printf '%s\n' "$debs/${p}_"*.deb | sort -V | tail -n1)
	dpkg-deb -x "$deb" "$root.new"
done

# The packages refer to each other by absolute path (/usr/src/..., the
# modules' build link). Make every reference relative to the unpacked root
# so kbuild works from the cache, wherever the cache is.
while IFS= read -r -d '' l; do
	t=$(readlink "$l")
	case $t in /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$root.new$t")" "$l" ;; esac
done < <(find "$root.new" -type l -print0)
hdr=$root.new/usr/src/linux-headers-$krel
[ -f "$hdr/Makefile" ] || die "no $hdr/Makefile in linux-headers-$krel"
# Its Makefile is one line: include /usr/src/linux-headers-<abi>-common/Makefile.
# make -C runs in $hdr, so a path relative to it stays valid.
sed -i "s|^include /usr/src/|include ../|" "$hdr/Makefile"
grep -q '^include \.\./linux-headers-.*-common/Makefile$' "$hdr/Makefile" ||
	die "unexpected $hdr/Makefile: $(cat "$hdr/Makefile")"

[ -f "$root.new/boot/vmlinuz-$krel" ] || die "no vmlinuz in linux-image-$krel"
# modules.dep is not in the package.
depmod -b "$root.new" "$krel"

rm -rf "$root"
mv "$root.new" "$root"
rm -f "$cache/initramfs-"*.cpio.gz
echo "$krel" >"$cache/kernel-release"
say "kernel $krel ready in $root"
done_
