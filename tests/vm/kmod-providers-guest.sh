#!/usr/bin/env bash
# Runs inside the VM guest, in the same boot as kmod-engine-guest.sh
# (tests/vm/kmod-engine-test.sh): the profile, proc, tcp, udp and ip
# providers' kernel halves (dtrace_profile.ko, dtrace_proc.ko,
# dtrace_tcp.ko, dtrace_udp.ko, dtrace_ip.ko) through
# bin/dtrace on the kmod engine, and `dtrace -l` listing the kernel's probes. Each case shows
# dtrace's output ("| " stdout, "! " stderr) and then "ok - ..." or
# "not ok - ..." lines; the last line is "PROVIDERS DONE".
#
# Usage: kmod-providers-guest.sh DTRACE_BINARY MODULE_DIR
set -uo pipefail
dtrace=$1
export DTRACE_KMOD_DIR=$2
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir kmod-providers
dt_args=(-x engine=kmod)

ncpu=$(nproc)
echo "# providers: kernel $(uname -r), $ncpu CPUs, modules from $DTRACE_KMOD_DIR"

# ---- profile ----------------------------------------------------------

# Timers start at GO, after BEGIN (dtps_start; kmod-robust-guest.sh checks
# it). A clause that ends tracing on a tick still waits for its second
# firing (/t++/): at least one full interval of tracing.

# 1. profile-997 fires on every CPU; tick-1s ends it. The compiler has no
#    `cpu` built-in yet (the ISA defines no DIF_VAR_CPU/CURCPU): the CPU is
#    the interrupted thread's, curthread->thread_info.cpu, which is the
#    same number in a timer interrupt.
dt cpus -qn 'profile-997 { @[curthread->thread_info.cpu] = count(); } tick-1s /t++/ { exit(0); }'
check "profile-997: exit 0" [ "$(rc cpus)" = 0 ]
check "dtrace loaded dtrace_profile.ko" grep -q '^dtrace_profile ' /proc/modules
for ((c = 0; c < ncpu; c++)); do
	check "profile-997 fired on CPU $c" has "$w/cpus.out" "^ +$c +[1-9][0-9]* *\$"
done
check "profile-997: nothing on stderr" [ ! -s "$w/cpus.err" ]

# 2. tick-1ms: i counts the firings; llquantize shows each value of i
#    once: the firing with i == 0 (< 1), 1 to 9 in their own buckets, and
#    the counts add up to i.
dt llq -qn 'tick-1ms { @ = llquantize(i++, 10, 0, 6, 20); } tick-200ms /t++/ { printf("n %d\n", i); exit(0); }'
check "tick-1ms: exit 0" [ "$(rc llq)" = 0 ]
n=$(val "$w/llq.out" n)
echo "# tick-1ms fired ${n:-?} times"
check "tick-1ms: i counted at least 10 firings" [ "${n:-0}" -ge 10 ]
check "llquantize: the i == 0 firing" has "$w/llq.out" '^ +< 1 \|@* +1 *$'
for v in 1 5 9; do
	check "llquantize: i == $v once" has "$w/llq.out" "^ +$v \\|@* +1 *\$"
done
check "llquantize: i from 10 up" has "$w/llq.out" '^ +[1-9][0-9]+ \|@* +[1-9][0-9]* *$'
total=$(awk '/\|/ { s += $NF } END { print s + 0 }' "$w/llq.out")
check "llquantize: the counts add up to i ($total)" [ "$total" = "${n:-x}" ]
check "llquantize: the distribution header" has "$w/llq.out" '^ +value +-+ Distribution -+ count *$'

# 3. arg0 (kernel PC) and arg1 (user PC) while a CPU spins in user space.
bash -c 'while :; do :; done' &
spin=$!
dt pcs -qn 'profile-97 /arg0 != 0/ { @k = count(); } profile-97 /arg1 != 0/ { @u = count(); }
    profile-97 /arg0 != 0 && arg1 != 0/ { @both = count(); }
    tick-1s /t++/ { exit(0); } END { printa("k %@d\n", @k); printa("u %@d\n", @u); printa("both %@d\n", @both); }'
kill $spin
wait $spin 2>/dev/null
check "profile-97 pcs: exit 0" [ "$(rc pcs)" = 0 ]
check "profile-97: kernel PCs seen (arg0 != 0)" [ "$(val "$w/pcs.out" k)" -gt 0 ] 2>/dev/null
check "profile-97: user PCs seen (arg1 != 0)" [ "$(val "$w/pcs.out" u)" -gt 0 ] 2>/dev/null
check "profile-97: never both" [ -z "$(val "$w/pcs.out" both)" ] || [ "$(val "$w/pcs.out" both)" = 0 ]

# 4. A rate created on demand (not in the default set), with a unit.
dt ondemand -qn 'profile-1234 { @a = count(); } profile-3ms { @b = count(); } tick-500ms /t++/ { exit(0); }
    END { printa("a %@d\n", @a); printa("b %@d\n", @b); }'
check "profile-1234/profile-3ms: exit 0" [ "$(rc ondemand)" = 0 ]
check "profile-1234 fired" [ "$(val "$w/ondemand.out" a)" -gt 0 ] 2>/dev/null
check "profile-3ms fired" [ "$(val "$w/ondemand.out" b)" -gt 0 ] 2>/dev/null
dt toofast -qn 'profile-100us { exit(0); }'
check "profile-100us (below 200us) matches no probe" has "$w/toofast.err" 'does not match any probes'
check "no enabled profile probe left (refcnt 0)" [ "$(refcnt dtrace_profile)" = 0 ]

# ---- proc -------------------------------------------------------------

# 5. exec-success in the new program (execname is the new one). The
#    command is held after its own exec (illumos Pcreate()): env's exec of
#    cat, in the same process, is the one seen.
dt execok -qn 'proc:::exec-success /pid == $target/ { printf("exec-success %s\n", execname); }' \
	-c 'env cat /etc/hostname'
check "exec-success: exit 0" [ "$(rc execok)" = 0 ]
check "dtrace loaded dtrace_proc.ko" grep -q '^dtrace_proc ' /proc/modules
check "exec-success: execname cat" has "$w/execok.out" '^exec-success cat$'
dt psargs -n 'proc:::exec-success /pid == $target/ { trace(curpsinfo->pr_psargs); }' \
	-c 'env cat /etc/hostname /etc/hostname'
check "exec-success: curpsinfo->pr_psargs is the command line" \
	has "$w/psargs.out" '^ +[0-9]+ +[0-9]+ +:exec-success +cat /etc/hostname /etc/hostname *$'

# 6. exec (the path, a kernel copy), create (args[0] is the child's
#    psinfo_t), exec-failure (errno), exit (reason), all from one shell
#    script (-c splits its argument at blanks, as illumos dtrace does).
printf '/nonexistent/prog\ncat /etc/hostname\ntrue\n' >"$w/life.sh"
dt life -qn '
    proc:::create /pid == $target/ { printf("create %d child %d ppid %d\n", pid, args[0]->pr_pid, args[0]->pr_ppid); }
    proc:::exec /ppid == $target/ { printf("exec %s\n", stringof(args[0])); }
    proc:::exec-failure /ppid == $target/ { printf("exec-failure %d\n", args[0]); }
    proc:::exit /ppid == $target/ { printf("exit %s reason %d\n", execname, args[0]); }' \
	-c "sh $w/life.sh"
check "life: exit 0" [ "$(rc life)" = 0 ]
tgt=$(awk '/^create /{ print $2; exit }' "$w/life.out")
check "create: the shell's children, args[0]->pr_ppid is the shell" \
	has "$w/life.out" "^create $tgt child [0-9]+ ppid $tgt\$"
check "create: args[0]->pr_pid is not the parent" \
	hasnt "$w/life.out" "^create $tgt child $tgt "
check "exec: the path of the failed exec" has "$w/life.out" '^exec /nonexistent/prog$'
check "exec: /bin/cat or /usr/bin/cat" has "$w/life.out" '^exec (/usr)?/bin/cat$'
check "exec-failure: ENOENT (2)" has "$w/life.out" '^exec-failure 2$'
check "exit: cat exited (CLD_EXITED 1)" has "$w/life.out" '^exit cat reason 1$'

# 7. proc:::exit counted by execname.
printf 'cat /etc/hostname\ncat /etc/hostname\ntrue\n' >"$w/exits.sh"
dt exits -qn 'proc:::exit { @[execname] = count(); }' -c "sh $w/exits.sh"
check "exit count: exit 0" [ "$(rc exits)" = 0 ]
check "exit count: cat exited twice" has "$w/exits.out" '^ +cat +2 *$'

# 8. signal-send with kill -9 (args[1] is the target's psinfo_t, args[2]
#    the signal), and signal-handle in the target (args[0] the signal).
timeout 120 "$dtrace" -x engine=kmod -qn 'proc:::signal-send /args[2] == 9/ { printf("kill -9 by %d to %d (lwp %d)\n", pid, args[1]->pr_pid, args[0]->pr_lwpid); exit(0); }' \
	>"$w/kill.out" 2>"$w/kill.err" &
dpid=$!
for _ in $(seq 600); do [ "$(refcnt dtrace_proc)" -gt 0 ] && break; sleep 0.1; done
sleep 1
sleep 100 &
victim=$!
kill -9 $victim
wait $victim 2>/dev/null
wait $dpid
echo $? >"$w/kill.rc"
echo "== kill: signal-send /args[2] == 9/ (exit $(rc kill)), kill -9 $victim by $$"
sed 's/^/| /' "$w/kill.out"
sed 's/^/! /' "$w/kill.err"
check "signal-send: exit 0" [ "$(rc kill)" = 0 ]
check "signal-send: kill -9 by this shell to the sleep" has "$w/kill.out" "^kill -9 by $$ to $victim \\(lwp $victim\\)\$"
printf 'trap "echo trapped" USR1\nkill -USR1 $$\ntrue\n' >"$w/handle.sh"
dt handle -qn 'proc:::signal-handle /pid == $target/ { printf("handle %d\n", args[0]); }' \
	-c "sh $w/handle.sh"
check "signal-handle: exit 0" [ "$(rc handle)" = 0 ]
check "signal-handle: SIGUSR1 (10) in the target" has "$w/handle.out" '^handle 10$'
check "signal-handle: the trap ran" has "$w/handle.out" '^trapped$'
check "no enabled proc probe left (refcnt 0)" [ "$(refcnt dtrace_proc)" = 0 ]

# 9. lwp-create and lwp-exit for threads, exit once for the process.
if command -v python3 >/dev/null; then
	printf '%s\n' 'import threading' \
		'ts = [threading.Thread(target=lambda: None) for _ in range(3)]' \
		'for t in ts: t.start()' 'for t in ts: t.join()' >"$w/thr.py"
	dt lwp -qn 'proc:::lwp-create /pid == $target/ { @c = count(); }
	    proc:::lwp-exit /pid == $target/ { @e = count(); } proc:::exit /pid == $target/ { @x = count(); }
	    END { printa("lwp-create %@d\n", @c); printa("lwp-exit %@d\n", @e); printa("exit %@d\n", @x); }' \
		-c "python3 $w/thr.py"
	check "lwp: exit 0" [ "$(rc lwp)" = 0 ]
	check "lwp-create: three threads" [ "$(val "$w/lwp.out" lwp-create)" = 3 ]
	check "lwp-exit: three threads" [ "$(val "$w/lwp.out" lwp-exit)" = 3 ]
	check "exit: once for the process" [ "$(val "$w/lwp.out" exit)" = 1 ]
else
	echo "# no python3: lwp-create/lwp-exit not checked"
fi

# ---- tcp, udp, ip ---------------------------------------------------------

# 10a. dtrace_tcp.ko: every tcp probe over loopback connections (IPv4,
#    IPv6; connect, accept, refused, bytes each way, state changes)
#    checked against the sockets' own view; dtrace_udp.ko and dtrace_ip.ko:
#    a datagram each way (IPv4, IPv6), its bytes, ports and addresses, the
#    socket's view (udpsinfo_t) and the packets on lo (ipv4info_t,
#    ipv6info_t); and the Guide's tcp, udp and ip examples: the host
#    tier's net_host_test.py with -x engine=kmod.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ip link set lo up 2>/dev/null # the guest boots with loopback down
if command -v python3 >/dev/null; then
	python3 "$top/plugins/tcp/tests/net_host_test.py" "$dtrace" \
		"$top/plugins/tcp/tests/net_workload.py" kmod >"$w/tcp.out" 2>&1
	sed 's/^/| /' "$w/tcp.out" | head -60
	check "tcp, udp, ip: net_host_test.py on the kmod engine" \
		grep -q '^PASS: tcp, udp and ip' "$w/tcp.out"
	for m in dtrace_tcp dtrace_udp dtrace_ip; do
		check "dtrace loaded $m.ko" grep -q "^$m " /proc/modules
		check "no enabled ${m#dtrace_} probe left (refcnt 0)" [ "$(refcnt $m)" = 0 ]
	done
else
	echo "# no python3: tcp, udp and ip not checked"
fi

# ---- dtrace -l from the kernel ------------------------------------------

# 10. -l on the kmod engine lists the kernel's probes and their ids; a
#    profile rate is created on demand by the listing itself.
dt lprof -l -n 'profile:::profile-4321'
check "-l profile-4321: exit 0" [ "$(rc lprof)" = 0 ]
check "-l profile-4321: one row, a kernel probe id" \
	has "$w/lprof.out" '^ *[0-9]+ +profile +profile-4321$'
dt lproc -l -P proc
check "-l -P proc: exit 0" [ "$(rc lproc)" = 0 ]
for p in create exec exec-success exec-failure exit lwp-create lwp-exit signal-send signal-handle signal-clear; do
	check "-l -P proc: $p" has "$w/lproc.out" "^ *[0-9]+ +proc +vmlinux +$p\$"
done
check "-l -P proc: no start (no tracepoint)" hasnt "$w/lproc.out" ' start$'
dt ltcp -l -P tcp
check "-l -P tcp: exit 0" [ "$(rc ltcp)" = 0 ]
for p in accept-established accept-refused connect-request connect-established connect-refused send receive state-change; do
	check "-l -P tcp: $p" has "$w/ltcp.out" "^ *[0-9]+ +tcp +vmlinux +$p\$"
done
for n in ip udp; do
	dt l$n -l -P $n
	check "-l -P $n: exit 0" [ "$(rc l$n)" = 0 ]
	for p in send receive; do
		check "-l -P $n: $p" has "$w/l$n.out" "^ *[0-9]+ +$n +vmlinux +$p\$"
	done
done
dt lprocv -lv -n 'proc:::create'
check "-lv proc:::create: args[0] is psinfo_t *" has "$w/lprocv.out" 'args\[0\]: psinfo_t \*'
check "-lv proc:::create: attributes" has "$w/lprocv.out" 'Identifier Names: +Evolving'
# The kernel's id for syscall::openat:entry is the one traced output shows.
dt lopen -l -n 'syscall::openat:entry'
lid=$(awk '$NF == "entry" { print $1 }' "$w/lopen.out")
dt topen -n 'syscall::openat:entry /pid == $target/ { trace(1); }' -c 'cat /etc/hostname'
check "-l syscall::openat:entry: the id the trace shows ($lid)" \
	has "$w/topen.out" "^ +[0-9]+ +$lid +openat:entry +1 *\$"
dt lnone -l -n 'proc:::start'
check "-l proc:::start: no kernel probe, DTrace's message" \
	has "$w/lnone.err" '^dtrace: failed to match proc:::start: No probe matches description$'

# 11. Everything unloads once no consumer is left.
for m in dtrace_fbt dtrace_pid dtrace_udp dtrace_ip dtrace_lockstat dtrace_sched dtrace_io dtrace_tcp dtrace_proc dtrace_profile dtrace_syscall dtrace; do
	if grep -q "^$m " /proc/modules; then check "rmmod $m" rmmod $m; fi
done
check "no module left" bash -c '! grep -q "^dtrace" /proc/modules'

echo "kmod providers: $nfail failed"
echo "PROVIDERS DONE"
