# shellcheck shell=bash disable=SC2154 # dtrace: the sourcing script sets it
# What the VM guest scripts (tests/vm/*-guest.sh) share, sourced by each:
# TAP-like "ok - ..." / "not ok - ..." lines counted in nfail, checks on
# files and on loaded modules, the work directory (workdir), running dtrace
# and keeping what it said (dt; rc NAME reads $w/NAME.rc), and the
# tortures' parallel `dtrace -l` (lister_start, lister_check) and the
# ending of their consumers (end_consumer). The sourcing script sets
# dtrace (the binary) first.
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

# workdir NAME: the script's work directory, w=$TMPDIR/NAME (the guest's
# TMPDIR is /run, a writable tmpfs).
workdir() {
	w=${TMPDIR:-/run}/$1
	mkdir -p "$w"
}

# dt NAME ARGS...: run "$dtrace" "${dt_args[@]}" ARGS (stdin /dev/null, at
# most 300 s); keep its stdout, stderr, status and wall time (ms) in
# $w/NAME.out, .err, .rc and .ms, and show them: the first $dt_lines lines
# of stdout ("| "), 20 of stderr ("! "). A script sets dt_args to the
# options every run takes (-x engine=kmod).
dt_args=()
dt_lines=40
dt() {
	local n=$1 ms0
	shift
	ms0=$(date +%s%N)
	timeout 300 "$dtrace" "${dt_args[@]}" "$@" </dev/null >"$w/$n.out" 2>"$w/$n.err"
	echo $? >"$w/$n.rc"
	echo $((($(date +%s%N) - ms0) / 1000000)) >"$w/$n.ms"
	echo "== $n: dtrace ${dt_args[*]:+${dt_args[*]} }$* (exit $(rc "$n"), $(secs "$n") s)"
	sed 's/^/| /' "$w/$n.out" | head -"$dt_lines"
	sed 's/^/! /' "$w/$n.err" | head -20
}
# A dt run's wall time in seconds, e.g. 4.21.
secs() { awk '{ printf "%.2f", $1 / 1000 }' "$w/$1.ms"; }
# The value of the first line "KEY n" of a file (printa("KEY %@d\n")), or
# nothing.
val() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }

# The tortures (fbt-guest.sh, kmod-robust-guest.sh): `dtrace -l` listed
# over and over while consumers are started and killed.
#
# lister_start END ARGS...: in the background (its pid in $lister), run
# "$dtrace" "${dt_args[@]}" -l ARGS until $SECONDS reaches END; each
# failure is a line of $w/tlist.err, the number of runs goes to
# $w/tlist.n.
lister_start() {
	local end=$1
	shift
	(
		n=0
		while [ $SECONDS -lt "$end" ]; do
			"$dtrace" "${dt_args[@]}" -l "$@" >/dev/null 2>>"$w/tlist.err" ||
				echo "list $n: exit $?" >>"$w/tlist.err"
			n=$((n + 1))
		done
		echo $n >"$w/tlist.n"
	) &
	lister=$!
}
# lister_check: wait for the lister, show its failures, check there were
# none.
lister_check() {
	wait "$lister"
	sed 's/^/! /' "$w/tlist.err" 2>/dev/null | head -10
	check "torture: dtrace -l ran in parallel" [ "$(cat "$w/tlist.n")" -ge 1 ]
	check "torture: every dtrace -l succeeded" [ ! -s "$w/tlist.err" ]
}
# end_consumer PID SIGNAL SECS: send the consumer SIGNAL and wait for it to
# end; one still running SECS seconds later is a line of $w/thang (checked
# by the caller) and is killed with -9.
end_consumer() {
	local pid=$1
	kill "-$2" "$pid" 2>/dev/null
	for _ in $(seq $(($3 * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		echo "consumer $pid: still running $3 s after its signal" >>"$w/thang"
		kill -9 "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
}
