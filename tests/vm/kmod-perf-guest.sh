#!/usr/bin/env bash
# Runs inside the VM guest (tests/vm/kmod-perf-test.sh boots it once):
# dt_perf.ko (kmod/perf), the probe overhead benchmark's provider, checked
# for correctness rather than speed. Its loop fires dt_perf:::fire N times;
# with `@ = count()` enabled through bin/dtrace on the kmod engine, the
# count must be exactly N, also when the firings come from both CPUs (the
# per-CPU aggregation buffers merged by the consumer), and exactly 10^6,
# three times in a row, while the aggregations are snapshotted every
# millisecond and printed during the run. Prints dtrace's
# output and "ok - ..." / "not ok - ..." lines, then "ALL DONE".
#
# Usage: kmod-perf-guest.sh DTRACE_BINARY MODULE_DIR
set -uo pipefail
dtrace=$1
mods=$2
export DTRACE_KMOD_DIR=$mods
d=/sys/kernel/debug/dt_perf
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir kmod-perf

check "insmod dtrace.ko" insmod "$mods/dtrace.ko"
check "insmod dt_perf.ko" insmod "$mods/dt_perf.ko"
check "the probe exists before any consumer (loop of 1000, no ECB)" \
	bash -c "echo 1000 > $d/fire && grep -q '^1000 [0-9]' $d/last"
check "the baseline loop" bash -c "echo 1000 > $d/loop && grep -q '^1000 [0-9]' $d/last"
check "not enabled" [ "$(cat $d/enabled)" = 0 ]

# trace NAME N1 N2: count, sum and max of firings while N1 firings run on
# CPU 0 and N2 on CPU 1 (dt_perf's loop: arg0 = i, arg1 = 1).
trace() {
	local n=$1 a=$2 b=$3
	"$dtrace" -Z -x engine=kmod -q -n 'dtrace:::BEGIN { printf("ready\n"); }
	    dt_perf:::fire { @c = count(); @s = sum(arg1); @m = max(arg0); }
	    dtrace:::END { printa("count %@d\n", @c); printa("sum %@d\n", @s); printa("max %@d\n", @m); }' \
		>"$w/$n.out" 2>"$w/$n.err" &
	local pid=$!
	for _ in $(seq 1200); do
		grep -q '^ready$' "$w/$n.out" && [ "$(cat $d/enabled)" = 1 ] && break
		sleep 0.1
	done
	check "$n: tracing" [ "$(cat $d/enabled)" = 1 ]
	taskset -c 0 bash -c "echo $a > $d/fire" &
	local p0=$!
	if [ "$b" -gt 0 ]; then taskset -c 1 bash -c "echo $b > $d/fire"; fi
	wait $p0
	kill -INT $pid
	wait $pid
	echo "== $n: $a firings on CPU 0, $b on CPU 1 (dtrace exit $?)"
	sed 's/^/| /' "$w/$n.out"
	sed 's/^/! /' "$w/$n.err"
	check "$n: count $((a + b))" has "$w/$n.out" "^count $((a + b))\$"
	check "$n: sum of arg1 $((a + b))" has "$w/$n.out" "^sum $((a + b))\$"
	check "$n: max of arg0 $(( (a > b ? a : b) - 1 ))" has "$w/$n.out" "^max $(( (a > b ? a : b) - 1 ))\$"
	check "$n: no drops, no errors" [ ! -s "$w/$n.err" ]
	check "$n: disabled after ^C" [ "$(cat $d/enabled)" = 0 ]
}
trace one 100000 0
trace two 60000 40000

# exact NAME A B: exact aggregations while they are snapshotted (issue 12,
# item 1, kmod part). A firings on CPU 0 then B on CPU 1 (dt_perf runs one
# loop at a time), with the consumer switching and reading every CPU's
# aggregation buffer every millisecond (aggrate=1ms: AGGSNAP, dtrace.ko's
# per-CPU cross-call switch) and printa() reading the merged values in
# the middle of the run (every 100000th firing: "at" lines, drained every
# 10 ms, so that a run of 10^6 firings spans many drains); END's count
# and sum must still be exactly A + B: no firing lost between snapshots.
exact() {
	local n=$1 a=$2 b=$3 t=$(($2 + $3))
	"$dtrace" -Z -x engine=kmod -x aggrate=1ms -x switchrate=10ms -q -n 'dtrace:::BEGIN { printf("ready\n"); }
	    dt_perf:::fire { @c = count(); @s = sum(arg1); }
	    dt_perf:::fire /arg0 % 100000 == 0/ { printa("at %@d\n", @c); }
	    dtrace:::END { printa("count %@d\n", @c); printa("sum %@d\n", @s); }' \
		>"$w/$n.out" 2>"$w/$n.err" &
	local pid=$!
	for _ in $(seq 1200); do
		grep -q '^ready$' "$w/$n.out" && [ "$(cat $d/enabled)" = 1 ] && break
		sleep 0.1
	done
	check "$n: tracing" [ "$(cat $d/enabled)" = 1 ]
	taskset -c 0 bash -c "echo $a > $d/fire"
	if [ "$b" -gt 0 ]; then taskset -c 1 bash -c "echo $b > $d/fire"; fi
	kill -INT $pid
	wait $pid
	echo "== $n: $a firings on CPU 0, then $b on CPU 1, aggrate=1ms (dtrace exit $?)"
	sed 's/^/| /' "$w/$n.out" | tail -n 6
	sed 's/^/! /' "$w/$n.err"
	check "$n: count $t, exactly" has "$w/$n.out" "^count $t\$"
	check "$n: sum of arg1 $t, exactly" has "$w/$n.out" "^sum $t\$"
	# Snapshots in the middle of the run: some printa() saw part of the count.
	check "$n: printa() during the run saw 0 < count < $t" \
		awk -v t="$t" '$1 == "at" && $2 > 0 && $2 < t { m = 1 } END { exit !m }' "$w/$n.out"
	check "$n: the counts printa() saw never go down" \
		awk '$1 == "at" { if ($2 < last) bad = 1; last = $2 } END { exit bad }' "$w/$n.out"
	check "$n: no drops, no errors" [ ! -s "$w/$n.err" ]
}
exact exact1 1000000 0
exact exact2 500000 500000
exact exact3 300000 700000

check "rmmod dt_perf" rmmod dt_perf
check "rmmod dtrace" rmmod dtrace
echo "kmod perf: $nfail failed"
echo "ALL DONE"
