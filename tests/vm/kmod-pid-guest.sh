#!/usr/bin/env bash
# Runs inside the VM guest, in the same boot as kmod-engine-guest.sh
# (tests/vm/kmod-engine-test.sh): the pid and USDT providers on the kmod
# engine, through their kernel half dtrace_pid.ko (uprobes). The targets
# make known calls (plugins/pid/tests/pid_calls.c, plugins/usdt/tests/
# usdt_target.c), and the counts, arguments and return values dtrace
# reports are checked against them. Each case shows dtrace's output
# ("| " stdout, "! " stderr) and then "ok - ..." or "not ok - ..." lines;
# the last line is "PID DONE".
#
# Usage: kmod-pid-guest.sh DTRACE_BINARY MODULE_DIR PID_CALLS USDT_TARGET USDT_WIDE
set -uo pipefail
dtrace=$1
export DTRACE_KMOD_DIR=$2
calls=$3
shop=$4
wide=$5
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir kmod-pid
dt_args=(-x engine=kmod)
# The same after dtrace's CPU, ID and FUNCTION:NAME columns (without -q).
val_after() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$1"; }

echo "# pid/usdt on kmod: kernel $(uname -r), modules from $DTRACE_KMOD_DIR"

# 1. Entry probes count every call: pid_calls 10 calls dt_pid_calls_square
#    i + 1 times for each i < 10 (55 calls), getpid() 5 times.
dt square -qn 'pid$target:a.out:dt_pid_calls_square:entry { @n = count(); @x = sum(arg0); }
	pid$target:libc:getpid:entry { @g = count(); }
	END { printa("n %@d\n", @n); printa("x %@d\n", @x); printa("g %@d\n", @g); }' -c "$calls 10"
check "pid entry: exit 0" [ "$(rc square)" = 0 ]
check "dtrace loaded dtrace_pid.ko" loaded dtrace_pid
check "pid entry: 55 calls of dt_pid_calls_square" [ "$(val "$w/square.out" n)" = 55 ]
# sum over i < 10 of (i + 1) * i = 330
check "pid entry: arg0 summed (330)" [ "$(val "$w/square.out" x)" = 330 ]
check "pid entry in libc: getpid() 5 times" [ "$(val "$w/square.out" g)" = 5 ]
check "pid entry: nothing on stderr" [ ! -s "$w/square.err" ]

# 2. Return probes: arg1 is the return value (x * x + 1; a - b), arg0 0;
#    entry arguments in order.
dt ret -qn 'pid$target:a.out:dt_pid_calls_square:return { @r = sum(arg1); @o = max(arg0); }
	pid$target:a.out:dt_pid_calls_pair:entry { printf("pair %d %d\n", arg0, arg1); }
	pid$target:a.out:dt_pid_calls_pair:return { printf("ret %d\n", arg1); }
	END { printa("r %@d\n", @r); printa("o %@d\n", @o); }' -c "$calls 4"
check "pid return: exit 0" [ "$(rc ret)" = 0 ]
# sum over i < 4 of (i + 1) * (i * i + 1) = 1 + 4 + 15 + 40 = 60
check "pid return: return values summed (60)" [ "$(val "$w/ret.out" r)" = 60 ]
check "pid return: arg0 is 0" [ "$(val "$w/ret.out" o)" = 0 ]
for i in 0 1 2 3; do
	check "pid entry args: pair $i $((100 + i))" has "$w/ret.out" "^pair $i $((100 + i))\$"
done
check "pid return: four returns of -100" [ "$(grep -c '^ret -100$' "$w/ret.out")" = 4 ]

# 3. malloc in libc, the classic one-liner (pid_calls -w prints "ready":
#    its stdout buffer at least), and an offset probe (the first
#    instruction, offset 0).
dt malloc -qn 'pid$target::malloc:entry { @ = count(); } END { printa("m %@d\n", @); }' -c "$calls -w"
check "pid\$target::malloc:entry: exit 0" [ "$(rc malloc)" = 0 ]
check "pid\$target::malloc:entry: at least one call" [ "$(val "$w/malloc.out" m)" -ge 1 ]
dt off -qn 'pid$target:a.out:dt_pid_calls_pair:0 { @ = count(); } END { printa("o %@d\n", @); }' -c "$calls 6"
check "pid offset probe :0: 6 calls" [ "$(val "$w/off.out" o)" = 6 ]

# 4. USDT: shop$target:::order-placed fires 10 times with (i, name,
#    -i * 10^9, (short)-i); its semaphore is raised while it is enabled.
plain=$("$shop" 10 2>&1 >/dev/null)
check "usdt untraced: the semaphore is 0 ($plain)" [ "$plain" = "enabled 0 of 10" ]
dt usdt -qn 'shop$target:::order-placed { @n = count(); @a = sum(arg0); @c = sum(arg2);
	@d = sum(arg3); @s[copyinstr(arg1)] = count(); }
	shop$target:::closed { @z = count(); }
	END { printa("n %@d\n", @n); printa("a %@d\n", @a); printa("c %@d\n", @c);
	printa("d %@d\n", @d); printa("s %s %@d\n", @s); printa("z %@d\n", @z); }' -c "$shop 10"
check "usdt: exit 0" [ "$(rc usdt)" = 0 ]
check "usdt: 10 firings" [ "$(val "$w/usdt.out" n)" = 10 ]
check "usdt: arg0 summed (45)" [ "$(val "$w/usdt.out" a)" = 45 ]
check "usdt: arg2, an 8-byte operand, summed (-45000000000)" \
	[ "$(val "$w/usdt.out" c)" = -45000000000 ]
check "usdt: arg3, a signed 2-byte operand, summed (-45)" [ "$(val "$w/usdt.out" d)" = -45 ]
check "usdt: copyinstr(arg1) apple 4 times" has "$w/usdt.out" '^s apple 4$'
check "usdt: copyinstr(arg1) plum 3 times" has "$w/usdt.out" '^s plum 3$'
check "usdt: closed once" [ "$(val "$w/usdt.out" z)" = 1 ]
check "usdt: the program saw its semaphore raised every time" \
	has "$w/usdt.err" '^enabled 10 of 10$'

# 4b. A site with a stapsdt note's most operands, 12 (usdt_wide.c):
#     wide:::twelve(base + 1, ..., base + 12) for base 0 and 100; args[10]
#     and args[11] come from dtrace_pid.ko's getargval as arg6-9 do.
dt wide -qn 'wide$target:::twelve { printf("w %d %d %d %d %d %d %d %d %d %d %d %d\n",
	args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8],
	arg9, args[10], args[11]); }' -c "$wide 2"
check "usdt 12 operands: exit 0" [ "$(rc wide)" = 0 ]
check "usdt 12 operands: args[0]..args[11] 1..12" has "$w/wide.out" \
	'^w 1 2 3 4 5 6 7 8 9 10 11 12$'
check "usdt 12 operands: args[0]..args[11] 101..112" has "$w/wide.out" \
	'^w 101 102 103 104 105 106 107 108 109 110 111 112$'
check "usdt 12 operands: two firings" [ "$(grep -c '^w ' "$w/wide.out")" = 2 ]

# 5. Bad input: a function that does not exist; a process that exits
#    while its probes are enabled (-p).
dt nomatch -n 'pid$target:a.out:no_such_function:entry' -c "$calls 1"
check "no match: exit 1" [ "$(rc nomatch)" = 1 ]
# illumos dt_pid.c: a function missing from a named object is D_PROC_FUNC.
check "no match: DTrace's message" has "$w/nomatch.err" \
	"failed to lookup 'no_such_function' in module 'a.out'"
fifo=$w/fifo
rm -f "$fifo"
mkfifo "$fifo"
"$calls" -w <"$fifo" >"$w/waiter.out" &
waiter=$!
exec 7>"$fifo"
for _ in $(seq 100); do grep -q ready "$w/waiter.out" && break; sleep 0.1; done
timeout 300 "$dtrace" -x engine=kmod -n 'pid$target:a.out:dt_pid_calls_square:entry { @ = count(); }
	END { printa("n %@d\n", @); }' -p "$waiter" >"$w/exit.out" 2>"$w/exit.err" 7>&- &
tracer=$!
for _ in $(seq 300); do grep -q 'matched' "$w/exit.err" && break; sleep 0.1; done
sleep 2	# GO follows the count of matched probes
printf 'abcdefg' >&7
sleep 1
exec 7>&-	# EOF: the process exits while traced
wait "$waiter"
wait "$tracer"
echo $? >"$w/exit.rc"
echo "== exit: dtrace -p (exit $(cat "$w/exit.rc"))"
sed 's/^/| /' "$w/exit.out"
sed 's/^/! /' "$w/exit.err"
check "process exits: dtrace exits 0" [ "$(rc exit)" = 0 ]
check "process exits: its 7 calls counted" [ "$(val_after "$w/exit.out" n)" = 7 ]
# Nothing stale: the module unloads, and a new traced run counts exactly.
check "no consumer left: rmmod dtrace_pid" rmmod dtrace_pid
dt again -qn 'pid$target:a.out:dt_pid_calls_square:entry { @ = count(); }
	END { printa("n %@d\n", @); }' -c "$calls 3"
check "a second run after reloading: 6 calls" [ "$(val "$w/again.out" n)" = 6 ]

# 6. dtrace -l lists pid probes as on the bpf engine (-c and -p): dtrace.ko
#    has them once they are placed for the listing (kmod_list.cc), with
#    its own ids, and they go with it; USDT probes alike.
dt listc -l -n 'pid$target::malloc:entry' -c "$calls 1"
check "dtrace -l -c: exit 0" [ "$(rc listc)" = 0 ]
check "dtrace -l -c: pid<N> libc.so.6 malloc entry" \
	has "$w/listc.out" '^ *[1-9][0-9]* +pid[0-9]+ +libc\.so\.6 +malloc +entry$'
check "dtrace -l -c: one probe" [ "$(grep -c ' malloc ' "$w/listc.out")" = 1 ]
sleep 60 &
sleeper=$!
dt listp -l -n 'pid$target:libc:malloc:return' -p $sleeper
check "dtrace -l -p: exit 0" [ "$(rc listp)" = 0 ]
check "dtrace -l -p: pid$sleeper libc malloc return" \
	has "$w/listp.out" "^ *[1-9][0-9]* +pid$sleeper +libc +malloc +return\$"
kill $sleeper
wait $sleeper 2>/dev/null
dt listu -l -n 'shop$target:::order-placed' -c "$shop 1"
check "dtrace -l -c of a USDT probe: shop<N> order-placed" \
	has "$w/listu.out" '^ *[1-9][0-9]* +shop[0-9]+ +[^ ]+ +[^ ]+ +order-placed$'
dt listleft -l -n 'pid*:::'
check "no pid probe left in dtrace.ko after the listings" hasnt "$w/listleft.out" ' pid[0-9]+ '

# 7. Everything unloads once no consumer is left.
for m in dtrace_pid dtrace; do
	if loaded $m; then check "rmmod $m" rmmod $m; fi
done
check "no module left" bash -c '! grep -q "^dtrace" /proc/modules'

echo "kmod pid: $nfail failed"
echo "PID DONE"
