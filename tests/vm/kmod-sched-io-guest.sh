#!/usr/bin/env bash
# Runs inside the VM guest (tests/vm/kmod-sched-io-test.sh boots it once):
# the sched and io providers' kernel halves (dtrace_sched.ko, dtrace_io.ko)
# through bin/dtrace on the kmod engine, which loads them itself.
# sched: a process that sleeps is seen going off CPU and to sleep, being
# woken and enqueued, with the arguments naming it. io: a known direct
# write to a loop device is summed per dev_statname at io:::start and
# io:::done, equal to what /proc/diskstats counted. Prints dtrace's output
# and "ok - ..." / "not ok - ..." lines, then "SCHED IO DONE".
#
# Usage: kmod-sched-io-guest.sh DTRACE_BINARY MODULE_DIR
set -uo pipefail
dtrace=$1
mods=$2
export DTRACE_KMOD_DIR=$mods
w=${TMPDIR:-/run}/kmod-sched-io
mkdir -p "$w"
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"

dt() { # dt NAME DTRACE_ARG...: run dtrace on the kmod engine, keep its output
	local n=$1
	shift
	timeout 300 "$dtrace" -x engine=kmod "$@" >"$w/$n.out" 2>"$w/$n.err"
	echo $? >"$w/$n.rc"
	echo "== $n (exit $(rc "$n"))"
	sed 's/^/| /' "$w/$n.out"
	sed 's/^/! /' "$w/$n.err"
}

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

echo "SCHED IO DONE"
