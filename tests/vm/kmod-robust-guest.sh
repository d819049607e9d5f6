#!/usr/bin/env bash
# Runs inside the VM guest, in the same boot as kmod-engine-guest.sh and
# kmod-providers-guest.sh (tests/vm/kmod-engine-test.sh): what keeps the
# kmod engine safe and DTrace-like over time, through bin/dtrace:
#
#   1. the deadman: a consumer that stops asking for status is killed
#      ("processing aborted: Abort due to systemic unresponsiveness"), one
#      that keeps asking is not (timeouts shortened through dtrace.ko's
#      module parameters, restored after)
#   2. tick-N and profile-N start at GO: the first firing comes one
#      interval after BEGIN
#   3. bufpolicy=fill (stops when full, END still recorded) and
#      bufpolicy=ring (the newest firings, printed at exit)
#   4. ustack(), jstack(), ustackdepth, ucaller on a program built with
#      frame pointers; errno, ipl, stackdepth, caller
#   5. torture for TORTURE_SECS seconds: consumers of syscall::: started
#      and killed (-9 or SIGTERM, dtrace's ^C) mid-trace in a loop while `dtrace -l` runs in
#      parallel; afterwards nothing is left enabled and every module
#      unloads. (The guest log is checked for oops/WARN/lockdep by the host.)
#
# Each case shows dtrace's output ("| " stdout, "! " stderr) and then
# "ok - ..." or "not ok - ..." lines; the last line is "ROBUST DONE".
#
# Usage: kmod-robust-guest.sh DTRACE_BINARY MODULE_DIR USTK_BINARY [TORTURE_SECS]
set -uo pipefail
dtrace=$1
export DTRACE_KMOD_DIR=$2
ustk=$3
torture=${4:-120}
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir kmod-robust
dt_args=(-x engine=kmod)
# Wait (at most 60 s) until a consumer has /dev/dtrace open.
wait_consumer() {
	for _ in $(seq 600); do
		loaded dtrace && [ "$(consumers)" -gt 0 ] && return 0
		sleep 0.1
	done
	return 1
}
# The last line of a file that is not empty.
lastline() { awk 'NF { l = $0 } END { print l }' "$1"; }
# Every number on lines "PREFIX n" of a file.
nums() { awk -v p="$2" '$1 == p { print $2 }' "$1"; }

echo "# robust: kernel $(uname -r), $(nproc) CPUs, torture ${torture}s"

# ---- 1. the deadman ------------------------------------------------------

dt load -qn 'BEGIN { exit(0); }'
check "dtrace.ko loaded" loaded dtrace
p=/sys/module/dtrace/parameters
check "deadman defaults: 1000 10000 30000 ms" \
	[ "$(cat $p/deadman_interval_ms) $(cat $p/deadman_timeout_ms) $(cat $p/deadman_user_ms)" = "1000 10000 30000" ]
# Shortened: the deadman runs every 100 ms and advances while the consumer
# asked for status in the last second; 2 s behind kills.
echo 100 >$p/deadman_interval_ms
echo 2000 >$p/deadman_timeout_ms
echo 1000 >$p/deadman_user_ms

# A consumer that keeps asking (dtrace does, every 25 ms) lives on.
dt alive -qn 'profile-97 { n++; } tick-100ms /++i == 50/ { printf("alive %d\n", i); exit(0); }'
check "deadman: a live consumer traces 5 s (exit 0)" [ "$(rc alive)" = 0 ]
check "deadman: a live consumer is not killed" has "$w/alive.out" '^alive 50$'

# A stopped consumer: its state is killed; once resumed it says so.
"$dtrace" -x engine=kmod -qn 'profile-97 { n++; } END { printf("END %d\n", n); }' \
	>"$w/dead.out" 2>"$w/dead.err" &
pid=$!
wait_consumer
sleep 2
kill -STOP $pid
sleep 6
kill -CONT $pid
for _ in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && kill -9 $pid
wait $pid
echo $? >"$w/dead.rc"
echo "== dead: SIGSTOP for 6 s, then SIGCONT (exit $(rc dead))"
sed 's/^/| /' "$w/dead.out"
sed 's/^/! /' "$w/dead.err"
check "deadman: exit 1" [ "$(rc dead)" = 1 ]
check "deadman: DTrace's message" \
	has "$w/dead.err" '^dtrace: processing aborted: Abort due to systemic unresponsiveness$'
check "deadman: END did not run" hasnt "$w/dead.out" 'END'
check "deadman: the killed consumer is gone" [ "$(consumers)" = 0 ]
echo 1000 >$p/deadman_interval_ms
echo 10000 >$p/deadman_timeout_ms
echo 30000 >$p/deadman_user_ms

# ---- 2. timers start at GO -------------------------------------------------

dt tickgo -qn 'BEGIN { t = timestamp; } tick-1s { printf("tick %d\n", (timestamp - t) / 1000000); exit(0); }'
v=$(nums "$w/tickgo.out" tick)
check "tick-1s: exit 0" [ "$(rc tickgo)" = 0 ]
check "tick-1s: first firing >= 1000 ms after BEGIN (${v:-none})" [ "${v:-0}" -ge 1000 ]
dt profgo -qn 'BEGIN { t = timestamp; s = 0; } profile-5 /!s/ { s = 1; printf("profile %d\n", (timestamp - t) / 1000000); } tick-2s { exit(0); }'
v=$(nums "$w/profgo.out" profile | sort -n | head -1)
check "profile-5: exit 0" [ "$(rc profgo)" = 0 ]
check "profile-5: first firing >= 200 ms after BEGIN (${v:-none})" [ "${v:-0}" -ge 200 ]

# ---- 3. buffer policies ------------------------------------------------------

# fill: 4 KB on the CPU tick-1ms fires on; it fills, tracing stops, END
# still finds the room kept for it.
dt fill -x bufpolicy=fill -x bufsize=4k -qn 'tick-1ms { printf("n %d\n", i++); } END { printf("END\n"); }'
seq_ok() { # the numbers of FILE are FIRST, FIRST+1, ... (at least MIN of them)
	awk -v first="$2" -v min="$3" '$1 == "n" { if ($2 != first + c) bad = 1; c++ }
		END { exit !(c >= min && !bad) }' "$1"
}
check "fill: exit 0" [ "$(rc fill)" = 0 ]
check "fill: firings 0, 1, 2 ... until full" seq_ok "$w/fill.out" 0 100
# A firing is at least 16 bytes (the record header and an int).
check "fill: no more than 4 KB of them" [ "$(grep -c '^n ' "$w/fill.out")" -le 256 ]
check "fill: END last" [ "$(lastline "$w/fill.out")" = END ]

# ring: 4 KB kept the newest firings of 1000; printed at exit, in order.
dt ring -x bufpolicy=ring -x bufsize=4k -qn 'tick-1ms { printf("n %d\n", i++); } tick-1ms /i == 1000/ { exit(0); } END { printf("END\n"); }'
first=$(nums "$w/ring.out" n | head -1)
check "ring: exit 0" [ "$(rc ring)" = 0 ]
check "ring: the oldest were overwritten (first ${first:-none})" [ "${first:-0}" -ge 500 ]
check "ring: the newest, in order, up to 999" bash -c "[ \"\$(awk '\$1 == \"n\" { l = \$2 } END { print l }' '$w/ring.out')\" = 999 ]"
[ -n "$first" ] && check "ring: consecutive" seq_ok "$w/ring.out" "$first" 100
check "ring: END last" [ "$(lastline "$w/ring.out")" = END ]
dt badpol -x bufpolicy=spill -qn 'BEGIN { exit(0); }'
check "bufpolicy=spill: exit 1" [ "$(rc badpol)" = 1 ]
check "bufpolicy=spill: DTrace's message" has "$w/badpol.err" 'bufpolicy'

# ---- 4. user stacks and built-in variables -----------------------------------

# ustk: main -> f1 -> f2 -> f3 -> getppid(), built with frame pointers;
# the getppid wrapper makes no frame, so the walk shows f2, f1, main.
dt ustack -qn 'syscall::getppid:entry /pid == $target/ { ustack(); printf("depth %d\n", ustackdepth); ufunc(ucaller); exit(0); }' -c "$ustk"
check "ustack: exit 0" [ "$(rc ustack)" = 0 ]
for f in f2 f1 main; do
	check "ustack: frame $f" has "$w/ustack.out" "^ +ustk\`$f\+0x[0-9a-f]+\$"
done
check "ustack: the first frame is getppid in libc" has "$w/ustack.out" 'libc[^`]*`(__)?getppid\+0x'
check "ustackdepth: at least 4" [ "$(nums "$w/ustack.out" depth)" -ge 4 ]
check "ucaller: f2 (the frame above the current one)" has "$w/ustack.out" '^ *ustk`f2 *$'
dt jstack -qn 'syscall::getppid:entry /pid == $target/ { jstack(); exit(0); }' -c "$ustk"
check "jstack: exit 0" [ "$(rc jstack)" = 0 ]
check "jstack: frame f1" has "$w/jstack.out" '^ +ustk`f1\+0x[0-9a-f]+$'
dt ukey -qn 'syscall::getppid:entry /pid == $target/ { @[ustack(5)] = count(); } syscall::getppid:entry /pid == $target && ++n == 3/ { exit(0); }' -c "$ustk"
check "@[ustack(5)]: f2 in the key" has "$w/ukey.out" '^ +ustk`f2\+0x[0-9a-f]+$'
check "@[ustack(5)]: counted 3 calls" has "$w/ukey.out" '^ +3$'

dt errno -qn 'syscall::openat:return /pid == $target/ { printf("errno %d\n", errno); } syscall::openat:entry /pid == $target/ { printf("entry errno %d\n", errno); }' \
	-c 'cat /nonexistent-robust'
check "errno: ENOENT on openat:return" has "$w/errno.out" '^errno 2$'
check "errno: 0 for a successful openat" has "$w/errno.out" '^errno 0$'
check "errno: 0 at entry" hasnt "$w/errno.out" '^entry errno [^0]'
# -F: the syscall provider says its probes are a system call's entry and
# return (plugin.h dt_probe_fire_t), which the kmod engine passes on.
dt flow -F -n 'syscall::getppid:entry /pid == $target/ {} syscall::getppid:return /pid == $target/ { exit(0); }' \
	-c "$ustk"
check "-F: exit 0" [ "$(rc flow)" = 0 ]
check "-F: => at a system call's entry" has "$w/flow.out" '^ +[0-9]+ +=> getppid +$'
check "-F: <= at its return" has "$w/flow.out" '^ +[0-9]+ +<= getppid +$'
dt vars -qn 'syscall::getppid:entry /pid == $target/ { printf("ipl %d stackdepth %d caller %a\n", ipl, stackdepth, caller); exit(0); }' -c "$ustk"
check "ipl, stackdepth, caller: exit 0" [ "$(rc vars)" = 0 ]
check "ipl, stackdepth, caller: no error" [ ! -s "$w/vars.err" ]
check "ipl 0, stackdepth > 0, caller a kernel address" \
	has "$w/vars.out" '^ipl 0 stackdepth [1-9][0-9]* caller [^0 ]'

# ---- 5. torture ------------------------------------------------------------

end=$((SECONDS + torture))
lister_start "$end"
cycles=0
kills=0
while [ $SECONDS -lt $end ]; do
	"$dtrace" -x engine=kmod -qn 'syscall:::entry { @[probefunc] = count(); } syscall:::return /errno/ { self->e++; }' \
		>/dev/null 2>>"$w/tchurn.err" &
	pid=$!
	# Sometimes before tracing started, mostly while it runs.
	sleep "0.$((RANDOM % 9 + 1))"
	[ $((RANDOM % 4)) != 0 ] && sleep 1
	# SIGTERM is dtrace's ^C (SIGINT is ignored by background jobs of a
	# script until dtrace installs its handler).
	if [ $((cycles % 2)) = 0 ]; then
		end_consumer $pid KILL 30
		kills=$((kills + 1))
	else
		end_consumer $pid TERM 30
	fi
	cycles=$((cycles + 1))
done
lister_check
echo "# torture: $cycles consumers of syscall::: ($kills killed with -9), $(cat "$w/tlist.n") listings"
check "torture: at least 10 consumers started and killed" [ "$cycles" -ge 10 ]
check "torture: every consumer ended on its signal" [ ! -s "$w/thang" ]
sleep 1
check "torture: no consumer left open" [ "$(consumers)" = 0 ]
check "torture: nothing enabled (dtrace_syscall refcnt 0)" [ "$(refcnt dtrace_syscall)" -le 0 ]
for m in dtrace_fbt dtrace_pid dtrace_udp dtrace_ip dtrace_lockstat dtrace_sched dtrace_io dtrace_tcp dtrace_proc dtrace_profile dtrace_syscall dtrace; do
	if loaded $m; then check "torture: rmmod $m" rmmod $m; fi
done
check "torture: no module left" bash -c '! grep -q "^dtrace" /proc/modules'

echo "kmod robust: $nfail failed"
echo "ROBUST DONE"
