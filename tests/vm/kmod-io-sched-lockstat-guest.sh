#!/usr/bin/env bash
# Runs inside the VM guest (tests/vm/kmod-io-sched-lockstat-test.sh boots
# it once): the io, sched and lockstat providers' kernel halves
# (dtrace_io.ko, dtrace_sched.ko, dtrace_lockstat.ko) through bin/dtrace on
# the kmod engine, which loads them itself.
# sched: a process that sleeps is seen going off CPU and to sleep, being
# woken and enqueued, with the arguments naming it. io: a known direct
# write to a loop device is summed per dev_statname at io:::start and
# io:::done, equal to what /proc/diskstats counted. lockstat: four writers
# of one pipe contend for its mutex (up to five tries, as contention needs
# them to run at once), each wait's time (args[1]) above 0 and below the
# run's. Prints dtrace's output and "ok - ..." /
# "not ok - ..." lines, then "IO SCHED LOCKSTAT DONE".
#
# Usage: kmod-io-sched-lockstat-guest.sh DTRACE_BINARY MODULE_DIR
set -uo pipefail
dtrace=$1
mods=$2
export DTRACE_KMOD_DIR=$mods
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir kmod-io-sched-lockstat
dt_args=(-x engine=kmod)
dt_lines=1000

# ---- sched ------------------------------------------------------------
dt sched -q -n 'sched:::off-cpu /pid == $target/ { @["off-cpu"] = count(); }
    sched:::sleep /pid == $target/ { @[probefunc] = count(); }
    sched:::wakeup, sched:::enqueue /args[1]->pr_pid == $target/ { @[probename] = count(); }
    sched:::enqueue /args[1]->pr_pid == $target && args[2]->cpu_id >= 0/ { @["cpu"] = count(); }
    sched:::off-cpu /pid == $target && args[1]->pr_pid != $target/ { @["next"] = count(); }
    dtrace:::END { printa("%s %@d\n", @); }' -c 'sleep 0.3'
check "sched: dtrace exits 0" [ "$(rc sched)" = 0 ]
check "dtrace loaded dtrace_sched.ko" loaded dtrace_sched
for k in off-cpu TASK_INTERRUPTIBLE wakeup enqueue cpu next; do
	check "sched: $k fired for the sleeping process" has "$w/sched.out" "^$k [1-9]"
done

# ---- io ---------------------------------------------------------------
modprobe -d "$DTRACE_VM_ROOT" loop 2>/dev/null
truncate -s 8M "$w/disk.img"
loop=$(losetup -f --show "$w/disk.img")
if [ -z "$loop" ]; then
	notok "io: a loop device (losetup)"
else
	name=${loop#/dev/}
	sleep 0.3
	before=$(awk -v d="$name" '$3 == d { print 512 * ($6 + $10) }' /proc/diskstats)
	dt io -q -n 'io:::start { @[args[1]->dev_statname] = sum(args[0]->b_bcount); }
	    io:::done { @d[args[1]->dev_statname] = sum(args[0]->b_bcount); }
	    io:::start /args[1]->dev_statname == $$1/ { @f[args[0]->b_flags & (B_READ | B_WRITE)] = count(); }
	    dtrace:::END { printa("start %s %@d\n", @); printa("done %s %@d\n", @d); printa("flags %d %@d\n", @f); }' \
		-c "dd if=/dev/zero of=$loop bs=4096 count=64 oflag=direct" "$name"
	after=$(awk -v d="$name" '$3 == d { print 512 * ($6 + $10) }' /proc/diskstats)
	check "io: dtrace exits 0" [ "$(rc io)" = 0 ]
	check "dtrace loaded dtrace_io.ko" loaded dtrace_io
	check "io: start bytes on $name = diskstats delta $((after - before))" \
		has "$w/io.out" "^start $name $((after - before))\$"
	check "io: 262144 bytes written" [ "$((after - before))" -ge 262144 ]
	check "io: done bytes on $name = start bytes" has "$w/io.out" "^done $name $((after - before))\$"
	check "io: 64 writes (B_WRITE)" has "$w/io.out" "^flags 256 64\$"
	losetup -d "$loop"
fi
rm -f "$w/disk.img"

# ---- lockstat -----------------------------------------------------------
cat >"$w/pipe.sh" <<'SH'
{ for i in 1 2 3 4; do dd if=/dev/zero bs=512 count=20000 status=none & done; wait; } |
	dd of=/dev/null bs=512 status=none
SH
for try in 1 2 3 4 5; do
	t0=$(date +%s%N)
	dt lockstat -q -n 'lockstat:::adaptive-spin, lockstat:::adaptive-block { @[probename] = count();
	    @lo = min(args[1]); @hi = max(args[1]); }
	    dtrace:::END { printa("%s %@d\n", @); printa("min %@d\n", @lo); printa("max %@d\n", @hi); }' \
	    -c "sh $w/pipe.sh"
	t1=$(date +%s%N)
	has "$w/lockstat.out" "^adaptive-(spin|block) [1-9]" && break
done
check "lockstat: dtrace exits 0" [ "$(rc lockstat)" = 0 ]
check "dtrace loaded dtrace_lockstat.ko" loaded dtrace_lockstat
check "lockstat: the pipe's mutex contended (try $try)" \
	has "$w/lockstat.out" "^adaptive-(spin|block) [1-9]"
# args[1], the time waited: more than nothing, less than the run.
lo=$(awk '$1 == "min" { print $2 }' "$w/lockstat.out")
hi=$(awk '$1 == "max" { print $2 }' "$w/lockstat.out")
check "lockstat: shortest wait $lo ns > 0" [ "${lo:-0}" -gt 0 ]
check "lockstat: longest wait $hi ns < the run's $((t1 - t0)) ns" [ "${hi:-0}" -lt "$((t1 - t0))" ]

echo "IO SCHED LOCKSTAT DONE"
