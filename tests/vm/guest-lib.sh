# shellcheck shell=bash
# What the VM guest scripts (tests/vm/*-guest.sh) share, sourced by each:
# TAP-like "ok - ..." / "not ok - ..." lines counted in nfail, checks on
# files and on loaded modules. rc NAME reads $w/NAME.rc (w is the
# sourcing script's work directory).
nfail=0
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; nfail=$((nfail + 1)); }
check() { # check DESC CMD...
	local d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
has() { grep -a -q -E -- "$2" "$1"; } # has FILE ERE
hasnt() { ! grep -a -q -E -- "$2" "$1"; }
loaded() { grep -q "^$1 " /proc/modules; }
refcnt() { cat "/sys/module/$1/refcnt" 2>/dev/null || echo -1; }
# Open consumers of dtrace.ko: its references beyond the provider modules'.
consumers() { echo $(( $(refcnt dtrace) - $(grep -c '^dtrace_' /proc/modules) )); }
rc() { cat "$w/$1.rc"; }
