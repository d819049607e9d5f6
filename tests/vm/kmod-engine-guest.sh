#!/usr/bin/env bash
# Runs inside the VM guest (tests/vm/kmod-engine-test.sh boots it once for
# all of this): the kmod engine through bin/dtrace, which loads dtrace.ko
# and the provider modules from DTRACE_KMOD_DIR on demand. Each case shows
# dtrace's output ("| " stdout, "! " stderr) and then "ok - ..." or
# "not ok - ..." lines; the last line is "ALL DONE".
#
# Usage: kmod-engine-guest.sh DTRACE_BINARY MODULE_DIR
set -uo pipefail
dtrace=$1
export DTRACE_KMOD_DIR=$2
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir kmod-engine
dt_lines=60

[ -e /dev/dtrace ] && notok "/dev/dtrace exists before dtrace ran"
loaded dtrace && notok "dtrace.ko loaded before dtrace ran"
echo "# kernel $(uname -r), $(nproc) CPUs, modules from $DTRACE_KMOD_DIR"

# 1. Every system call of the target, with execname and probefunc. dtrace
#    loads dtrace.ko and dtrace_syscall.ko itself.
#    evaltime=exec: from just after exec, the dynamic linker's calls too.
dt calls -x engine=kmod -x evaltime=exec -qn 'syscall:::entry /pid == $target/ { printf("%s %s\n", execname, probefunc); }' \
	-c 'cat /etc/hostname'
check "syscall:::entry for \$target: exit 0" [ "$(rc calls)" = 0 ]
check "dtrace loaded dtrace.ko and dtrace_syscall.ko" loaded dtrace
check "dtrace_syscall.ko loaded" loaded dtrace_syscall
check "/dev/dtrace exists" [ -c /dev/dtrace ]
for f in openat read write close; do
	check "cat's $f seen" has "$w/calls.out" "^cat $f\$"
done
check "cat's own output is there" has "$w/calls.out" "^$(cat /etc/hostname)\$"
check "nothing on stderr" [ ! -s "$w/calls.err" ]
check "no consumer left open on dtrace.ko" [ "$(consumers)" = 0 ]
check "no enabled probe left: dtrace_syscall refcnt 0" [ "$(refcnt dtrace_syscall)" = 0 ]

# 2. An aggregation: quantize() of what cat's reads return.
dt quant -x engine=kmod -qn 'syscall::read:return /execname == "cat"/ { @ = quantize(arg0); }' \
	-c 'cat -v /etc/passwd'
check "quantize: exit 0" [ "$(rc quant)" = 0 ]
check "quantize: the distribution header" has "$w/quant.out" '^ +value +-+ Distribution -+ count *$'
check "quantize: a bucket of the file's size" has "$w/quant.out" "^ +$(awk -v s="$(stat -c %s /etc/passwd)" 'BEGIN { b = 1; while (b * 2 <= s) b *= 2; print b }') \|@+ +[1-9][0-9]* *\$"
check "quantize: the 0 bucket (end of file)" has "$w/quant.out" '^ +0 \|@+ +[1-9][0-9]* *$'

# 3. copyinstr() of openat's path, every process; the default output
#    format (the kernel's probe ID) in a second run.
dt opens -x engine=kmod -qn 'syscall::openat:entry { printf("%s %s\n", execname, copyinstr(arg1)); }' \
	-c 'cat /etc/hostname'
check "openat: cat /etc/hostname seen" has "$w/opens.out" '^cat /etc/hostname$'
dt opens2 -x engine=kmod -n 'syscall::openat:entry /pid == $target/ { trace(copyinstr(arg1)); }' \
	-c 'cat /etc/hostname'
check "default output: the heading" has "$w/opens2.out" '^CPU +ID +FUNCTION:NAME$'
check "default output: openat:entry /etc/hostname" has "$w/opens2.out" '^ +[0-9]+ +[0-9]+ +openat:entry +/etc/hostname +$'
check "default output: matched 1 probe" has "$w/opens2.err" "^dtrace: description 'syscall::openat:entry ' matched 1 probe\$"

# 4. A bad pointer: DTrace's ERROR message, tracing goes on, no oops.
dt fault -x engine=kmod -qn 'BEGIN { trace(*(int *)0); } BEGIN { printf("after\n"); exit(0); }'
check "fault: exit 0" [ "$(rc fault)" = 0 ]
check "fault: the ERROR message" has "$w/fault.err" '^dtrace: error on enabled probe ID 1 \(ID 1: dtrace:::BEGIN\): invalid address \(0x0\) in action #1 at DIF offset [0-9]+$'
check "fault: the next clause ran" has "$w/fault.out" '^after$'
dt errclause -x engine=kmod -qn 'BEGIN { x = *(int *)8; } ERROR { printf("ERROR arg4=%d arg5=%d\n", arg4, arg5); exit(0); }'
check "ERROR clause sees the fault (BADADDR 1, address 8)" has "$w/errclause.out" '^ERROR arg4=1 arg5=8$'
check "ERROR clause: the fault is reported after it" has "$w/errclause.err" 'invalid address \(0x8\) in action #1'

# 5. exit() ends tracing at once (the target goes on), END runs.
start=$(date +%s)
dt exit -x engine=kmod -qn 'syscall::openat:entry /pid == $target/ { n++; } syscall::nanosleep:entry,syscall::clock_nanosleep:entry /pid == $target/ { exit(3); } END { printf("END opens=%d\n", n); }' \
	-c 'sleep 30'
took=$(( $(date +%s) - start ))
check "exit(3): dtrace exits 3" [ "$(rc exit)" = 3 ]
check "exit(3): END ran" has "$w/exit.out" '^END opens=[1-9][0-9]*$'
check "exit(3): did not wait for the target (${took}s)" [ "$took" -lt 25 ]
pkill -x sleep || true

# 6. ^C: the aggregation is printed, the enabling torn down.
"$dtrace" -x engine=kmod -qn 'syscall:::entry /execname == "cat"/ { @[probefunc] = count(); }' \
	>"$w/intr.out" 2>"$w/intr.err" &
pid=$!
for _ in $(seq 600); do [ "$(refcnt dtrace_syscall)" -gt 0 ] && break; sleep 0.1; done
sleep 3
cat /etc/hostname >/dev/null
cat /etc/passwd >/dev/null
kill -INT $pid
wait $pid
echo $? >"$w/intr.rc"
echo "== intr: ^C after two cats (exit $(rc intr))"
sed 's/^/| /' "$w/intr.out"
sed 's/^/! /' "$w/intr.err"
check "^C: exit 0" [ "$(rc intr)" = 0 ]
check "^C: read counted" has "$w/intr.out" '^ +read +[1-9][0-9]* *$'
check "^C: openat counted" has "$w/intr.out" '^ +openat +[1-9][0-9]* *$'
check "^C: torn down (dtrace_syscall refcnt 0)" [ "$(refcnt dtrace_syscall)" = 0 ]

# 7. Automatic choice: /dev/dtrace exists and syscall has a kernel module.
DTRACE_DEBUG=1 dt auto -qn 'syscall::openat:entry /pid == $target/ { printf("auto %s\n", copyinstr(arg1)); }' \
	-c 'cat /etc/hostname'
check "auto: the kmod engine chosen" has "$w/auto.err" '^dtrace: engine kmod '
check "auto: it traced" has "$w/auto.out" '^auto /etc/hostname$'

# 8. Speculations (spec.c). (a) Each of cat's opens is speculated at entry
#    and committed only if it failed, discarded otherwise: what is printed
#    must be exactly the failed opens, so every path printed must not
#    exist, the missing file must be there and the files cat read must not.
#    sh keeps running a moment after cat, so that a commit on another CPU
#    than the speculate is cleaned in before the last read.
echo 'cat /etc/hostname /kspec-missing /etc/passwd >/dev/null 2>&1; sleep 1' >"$w/specfail.sh"
dt specfail -x engine=kmod -x nspec=4 -qn '
syscall::openat:entry /execname == "cat"/ { self->s = speculation(); speculate(self->s); printf("%s\n", copyinstr(arg1)); }
syscall::openat:return /self->s && (int)arg0 < 0/ { commit(self->s); self->s = 0; }
syscall::openat:return /self->s/ { discard(self->s); self->s = 0; discarded++; }
END { printf("discarded %d\n", discarded); }' \
	-c "sh $w/specfail.sh"
check "speculation: exit 0" [ "$(rc specfail)" = 0 ]
check "speculation: the failed open of /kspec-missing committed" has "$w/specfail.out" '^/kspec-missing$'
check "speculation: the opens that worked were discarded (at least 2)" \
	has "$w/specfail.out" '^discarded ([2-9]|[1-9][0-9]+)$'
check "speculation: /etc/hostname (opened) discarded" bash -c "! grep -q '^/etc/hostname\$' '$w/specfail.out'"
check "speculation: /etc/passwd (opened) discarded" bash -c "! grep -q '^/etc/passwd\$' '$w/specfail.out'"
check "speculation: every committed path is one that does not exist" \
	bash -c 'grep "^/" "$1" | while IFS= read -r p; do [ ! -e "$p" ] || exit 1; done' _ "$w/specfail.out"
# (copyinstr() of a path on a user page not yet faulted in is an error in
# DTrace too, so errors are allowed; lost speculative data is not.)
check "speculation: no speculative drops or failed speculations" \
	bash -c "! grep -q -E 'speculative drops|failed speculations' '$w/specfail.err'"
# (b) One speculation filled on both CPUs (cat pinned to CPU 0 and to CPU
#     1), committed by head's first open on one of them (its later
#     commits find nothing active): the other CPU's part comes in through
#     the cleaner's cross-call. A cat run after the commit speculates into
#     an inactive speculation: dropped.
if [ "$(nproc)" -ge 2 ]; then
	"$dtrace" -x engine=kmod -qn '
BEGIN { s = speculation(); }
syscall::openat:entry /execname == "cat"/ { speculate(s); printf("cpu%d %s\n", cpu, copyinstr(arg1)); }
syscall::openat:entry /execname == "head"/ { commit(s); }
syscall::openat:entry /execname == "tail"/ { exit(0); }' >"$w/spec2.out" 2>"$w/spec2.err" &
	pid=$!
	for _ in $(seq 600); do [ "$(refcnt dtrace_syscall)" -gt 0 ] && break; sleep 0.1; done
	sleep 1
	taskset -c 0 cat /etc/hostname >/dev/null
	taskset -c 1 cat /etc/passwd >/dev/null
	taskset -c 1 head -c1 /etc/hostname >/dev/null
	sleep 0.5
	taskset -c 0 cat /etc/shells >/dev/null 2>&1
	sleep 0.5
	tail -c1 /etc/hostname >/dev/null
	for _ in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	kill $pid 2>/dev/null
	wait $pid
	echo $? >"$w/spec2.rc"
	echo "== spec2: one speculation on two CPUs, committed by head (exit $(rc spec2))"
	sed 's/^/| /' "$w/spec2.out" | head -60
	sed 's/^/! /' "$w/spec2.err" | head -20
	check "speculation on 2 CPUs: exit 0" [ "$(rc spec2)" = 0 ]
	check "speculation on 2 CPUs: CPU 0's open of /etc/hostname committed" has "$w/spec2.out" '^cpu0 /etc/hostname$'
	check "speculation on 2 CPUs: CPU 1's open of /etc/passwd committed" has "$w/spec2.out" '^cpu1 /etc/passwd$'
	check "speculation on 2 CPUs: after the commit, speculate() drops" bash -c "! grep -q '/etc/shells' '$w/spec2.out'"
	# (copyinstr() of a path not yet paged in faults, as in illumos: not checked)
	check "speculation on 2 CPUs: no speculative drop, no failed speculation" \
		bash -c "! grep -q -i 'speculat' '$w/spec2.err'"
fi

# 8b. dtrace.ko refuses one ECB (an action it does not run yet): the error
#    names that description and the command-line piece it came from (the
#    blob offset dtrace.ko reports lies in that ECB's section), after the
#    pieces before it were counted.
dt refused -x engine=kmod -w -n 'BEGIN { exit(0); }' -n 'END { raise(9); }'
check "refused ECB: exit 1" [ "$(rc refused)" = 1 ]
check "refused ECB: the first piece matched" has "$w/refused.err" "^dtrace: description 'BEGIN ' matched 1 probe\$"
check "refused ECB: names its piece and description" has "$w/refused.err" "^dtrace: failed to enable 'END ': the kmod engine cannot enable :::END: ECB 2 action 1: action kind 0x[0-9a-f]+ is not supported yet$"
check "no consumer left open after the refusal" [ "$(consumers)" = 0 ]

# 8b. Kernel symbols (&`sym from kallsyms; this kernel's BTF types only
#     per-CPU variables, so max_pfn is read through a cast) and uregs[]
#     (regs.d): write's first argument register holds the fd, 1.
dt ksym -x engine=kmod -qn 'syscall::write:entry /pid == $target/ { printf("%d %d %d\n", *(unsigned long *)&`max_pfn > 0, uregs[R_RDI], (uint64_t)&vmlinux`max_pfn == (uint64_t)&`max_pfn); exit(0); }' \
	-c 'echo hi'
check "kernel symbol and uregs: exit 0" [ "$(rc ksym)" = 0 ]
check "max_pfn read through &\`max_pfn; uregs[R_RDI] is write's fd" has "$w/ksym.out" '^1 1 1$'

# 8c. -x oformat=json (docs/json.md): the kmod engine's records go through
#     the same consumer: JSON Lines that jq reads, probe records with the
#     probe's description and printf()'s message, an aggregation's
#     buckets, a fault as an error record, the end record last. -o keeps
#     the stream apart from cat's own output.
dt json -x engine=kmod -x oformat=json -o "$w/json.jsonl" -qn 'syscall::read:entry /execname == "cat"/ { printf("%s %d\n", probefunc, arg0); }
	syscall::read:return /execname == "cat"/ { @q = quantize(arg0); }
	syscall::close:entry /execname == "cat"/ { trace(*(int *)8); }' -c 'cat /etc/hostname'
sed 's/^/| /' "$w/json.jsonl" | head -8
check "oformat=json: exit 0" [ "$(rc json)" = 0 ]
if command -v jq >/dev/null; then
	check "oformat=json: jq reads every line" bash -c "jq -c .type '$w/json.jsonl' >'$w/json.types'"
	check "oformat=json: one document per line" \
		[ "$(wc -l <"$w/json.types")" = "$(wc -l <"$w/json.jsonl")" ]
else
	echo "# no jq in the guest: JSON not read back"
fi
check "oformat=json: cat's reads are probe records" has "$w/json.jsonl" \
	'^\{"type":"probe",.*"provider":"syscall","module":"[^"]*","function":"read","name":"entry","output":\[\{"message":"read [0-9]+\\n","args":\["read",[0-9]+\]\}\]\}$'
check "oformat=json: the quantize() at exit" has "$w/json.jsonl" \
	'^\{"type":"aggregation","aggregation-name":"q","function":"quantize","aggregation-data":\[\{"keys":\[\],"buckets":\[\{"value":0,"min":0,"max":0,"count":[0-9]+\}'
check "oformat=json: the fault is an error record" has "$w/json.jsonl" \
	'^\{"type":"error","fault":"invalid address","address":"0x8",.*"provider":"syscall",.*"function":"close"'
check "oformat=json: the end record is last" [ "$(tail -n 1 "$w/json.jsonl")" = '{"type":"end","status":0}' ]
check "oformat=json: nothing on stderr" [ ! -s "$w/json.err" ]
check "oformat=json: cat's output on stdout" has "$w/json.out" "^$(cat /etc/hostname)\$"

# 8d. -x cpu=1 (illumos DTRACEOPT_CPU): only CPU 1 is traced. BEGIN, the
#     tick and END fire there (the consumer calls GO and STOP from it, the
#     tick is armed by GO), profile-997 fires on both CPUs but runs its
#     clause on CPU 1 only. (The golden suite's cases run -x cpu=0 and a
#     CPU that does not exist.)
dt cpu1 -x engine=kmod -x cpu=1 -qn 'BEGIN { printf("BEGIN %d\n", cpu); }
	profile-997 { @[cpu] = count(); }
	tick-10ms /i++ == 30/ { printf("tick %d\n", cpu); exit(0); }
	END { printf("END %d\n", cpu); printa("on %d %@d\n", @); }'
check "-x cpu=1: exit 0" [ "$(rc cpu1)" = 0 ]
for p in BEGIN tick END; do check "-x cpu=1: $p on CPU 1" has "$w/cpu1.out" "^$p 1\$"; done
check "-x cpu=1: profile-997 ran on CPU 1" has "$w/cpu1.out" '^on 1 [1-9]'
check "-x cpu=1: and on no other CPU" hasnt "$w/cpu1.out" '^on [02-9]'

# 9. kill -9 of a consumer mid-trace: the kernel tears its enabling down,
#    then both modules unload.
"$dtrace" -x engine=kmod -qn 'syscall:::entry { @[execname, probefunc] = count(); } syscall:::return { self->x++; }' \
	>/dev/null 2>"$w/kill.err" &
pid=$!
for _ in $(seq 600); do [ "$(refcnt dtrace_syscall)" -gt 0 ] && break; sleep 0.1; done
sleep 2
ls -lR /etc >/dev/null 2>&1
check "kill -9: tracing was on (dtrace_syscall in use)" [ "$(refcnt dtrace_syscall)" -gt 0 ]
rmmod dtrace_syscall 2>/dev/null && notok "rmmod dtrace_syscall succeeded while in use"
kill -9 $pid
wait $pid 2>/dev/null
sleep 1
check "kill -9: no consumer left open on dtrace.ko" [ "$(consumers)" = 0 ]
echo "# refcnt after kill -9: dtrace $(refcnt dtrace), dtrace_syscall $(refcnt dtrace_syscall)"
check "kill -9: rmmod dtrace_syscall" rmmod dtrace_syscall
# A name-only description (BEGIN) loads every provider module (profile, proc).
for m in dtrace_fbt dtrace_pid dtrace_udp dtrace_ip dtrace_profile dtrace_proc dtrace_tcp dtrace_io dtrace_sched dtrace_lockstat; do if loaded $m; then rmmod $m; fi; done
check "kill -9: rmmod dtrace" rmmod dtrace
check "no module left" bash -c '! grep -q "^dtrace" /proc/modules'

# 10. Loading is impossible: say so (a module directory without modules).
DTRACE_KMOD_DIR=/nonexistent dt nomod -x engine=kmod -qn 'BEGIN { exit(0); }'
check "no module: exit 1" [ "$(rc nomod)" = 1 ]
check "no module: says where it looked" has "$w/nomod.err" 'cannot load module dtrace: no dtrace.ko in /nonexistent'

echo "kmod engine: $nfail failed"
echo "ALL DONE"
