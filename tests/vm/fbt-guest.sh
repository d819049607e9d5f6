#!/usr/bin/env bash
# Runs inside the VM guest (tests/vm/fbt-test.sh boots it once): the fbt
# provider through bin/dtrace on one engine (kmod: dtrace_fbt.ko, loaded
# by dtrace from DTRACE_KMOD_DIR, a kprobe or kretprobe per enabled probe;
# bpf: kprobes through the perf kprobe PMU), then the torture
# (TORTURE_SECS):
#
#   1. entry counts: vfs_read's entries from `dd` with a fixed count, by pid
#   2. return values: args[1] of vfs_read:return (typed ssize_t), as
#      @[args[1]] and as quantize()
#   3. typed entry arguments: args[2] (size_t count) of vfs_read; 3a.
#      kernel stacks at fbt::ksys_write and syscall::write against
#      ftrace's (the kernel's unwinder); 3b. bpf: fentry/fexit and kprobes
#   4. a module's functions: fbt:9p:: (the guest's root is 9p) while a
#      file is read; fbt:loop:: with loop.ko unloaded while its probes are
#      enabled (kmod: the probes die with the module, no oops)
#   5. a large glob: fbt::vfs_*:entry (every engine), and BIG_GLOB when
#      given, also the torture's glob then; kmod: the time to enable
#      fbt::vfs_*:entry by name and by the address userspace hands over,
#      and what dtrace_fbt.ko refuses (bad names or addresses written to
#      `provide`, the tracer's own module, a blacklisted function:
#      DTrace's error, no crash)
#   6. torture: consumers of a glob started and killed (kmod: -9, of
#      fbt::[a-m]*:entry, 18,866 functions, killed while they provide or
#      enable; bpf: -9 or SIGTERM) in a loop while `dtrace -l -P fbt` runs
#      in parallel; afterwards nothing is armed or enabled and the modules
#      unload.
#
# Each case shows dtrace's output ("| " stdout, "! " stderr) and then
# "ok - ..." or "not ok - ..." lines; the last line is "FBT <engine> DONE".
#
# Usage: fbt-guest.sh ENGINE DTRACE_BINARY MODULE_DIR TORTURE_SECS [BIG_GLOB]
set -uo pipefail
engine=$1
dtrace=$2
export DTRACE_KMOD_DIR=$3
torture=${4:-60}
BIG_GLOB=${5:-}
FBT_MODE=${FBT_MODE:-} # multi, multi-bench: section 5b alone (vm.fbt612)
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir "fbt-$engine"
dt_args=(-x engine="$engine")
dt_lines=30
# The value of the last "KEY n" line (printa("KEY %@d\n")), or -1.
val_last() { awk -v k="$2" '$1 == k { v = $2 } END { print (v == "" ? -1 : v) }' "$1"; }
kprobes() { cat /sys/kernel/debug/kprobes/list 2>/dev/null | grep -c .; }
armed() { cat /sys/module/dtrace_fbt/parameters/armed 2>/dev/null || echo 0; }

echo "# fbt on the $engine engine: kernel $(uname -r), $(nproc) CPUs"
# fprobes (CONFIG_FPROBE): the bpf engine's globs go through kprobe_multi.
fprobe=0
grep -q '^CONFIG_FPROBE=y' "${DTRACE_VM_ROOT:-}/boot/config-$(uname -r)" 2>/dev/null && fprobe=1
kp0=$(kprobes)

# fbt_multi (section 5b; FBT_MODE=multi: alone): on a kernel with fprobes
# (CONFIG_FPROBE: 6.12, not Debian's 6.1) more kprobes than
# DTRACE_BPF_TRAMPOLINE_MAX become one kprobe_multi link per kind
# (attach.hpp); with the limit 0 even one function goes through it.
# While a glob is traced no kprobe is registered: the fprobe is one ftrace
# ops (enabled_functions). Timings: the start to BEGIN (matching, loading,
# attaching) and exit() to END (detaching), beside bpftrace's when the
# guest has it (the same kernel, kprobe_multi too), and the start-up of a
# program with no fbt probe for reference; fbt:::entry and bpftrace only
# with FBT_MODE=multi-bench (minutes under emulation).
fbt_multi() {
	echo "# kprobe_multi: CONFIG_FPROBE=y in $(uname -r)"
	DTRACE_DEBUG=1 DTRACE_BPF_TRAMPOLINE_MAX=0 dt mcount -qn 'fbt::vfs_read:entry /pid == $target/ { @e = count(); @a[args[2]] = count(); }
	    fbt::vfs_read:return /pid == $target && args[1] == 7/ { @r = count(); }
	    dtrace:::END { printa("entries %@d\n", @e); printa("ret7 %@d\n", @r); printa("count%d %@d\n", @a); }' \
		-c 'dd if=/dev/zero of=/dev/null bs=7 count=300 status=none'
	check "kprobe_multi: the engine says so" has "$w/mcount.err" 'kprobes through kprobe_multi links'
	n=$(val_last "$w/mcount.out" entries)
	check "kprobe_multi: vfs_read entries of dd ($n: 300 and at most 20 from ld.so)" \
		[ "$n" -ge 300 ] && [ "$n" -le 320 ]
	check "kprobe_multi: args[2] == 7 exactly 300 times" [ "$(val_last "$w/mcount.out" count7)" = 300 ]
	check "kretprobe_multi: args[1] == 7 exactly 300 times" [ "$(val_last "$w/mcount.out" ret7)" = 300 ]
	DTRACE_BPF_TRAMPOLINE_MAX=0 dt mquant -qn 'fbt::vfs_read:return /pid == $target/ { @ = quantize(args[1]); }' \
		-c 'dd if=/dev/zero of=/dev/null bs=100 count=50 status=none'
	check "kretprobe_multi: quantize(args[1]): the 64 bucket holds dd's 50 reads" \
		has "$w/mquant.out" '^ +64 \|@+ +5[0-9] *$'
	# Traced while the fprobe is looked at: no kprobe, the functions in
	# ftrace's enabled_functions.
	local tr=/sys/kernel/tracing n nsec nen nkp pid
	nsec=$("$dtrace" -l -n 'fbt:vmlinux:security_*:entry' | grep -c ' entry$')
	"$dtrace" -x engine=bpf -qn 'fbt::security_*:entry { @ = count(); }
	    dtrace:::BEGIN { printf("tracing\n"); } dtrace:::END { printa("calls %@d\n", @); }' \
		>"$w/msec.out" 2>"$w/msec.err" &
	pid=$!
	for _ in $(seq 600); do has "$w/msec.out" '^tracing$' && break; sleep 0.1; done
	cat /etc/hostname >/dev/null
	nen=$(grep -c '^security_' $tr/enabled_functions)
	nkp=$(kprobes)
	kill -INT $pid
	wait $pid
	echo $? >"$w/msec.rc"
	sed 's/^/| /' "$w/msec.out"
	sed 's/^/! /' "$w/msec.err" | head
	check "fbt::security_*:entry ($nsec functions): exit 0 on SIGINT" [ "$(rc msec)" = 0 ]
	check "fbt::security_*:entry: calls counted" [ "$(val_last "$w/msec.out" calls)" -gt 0 ]
	check "fbt::security_*:entry: $nen of $nsec functions in enabled_functions" [ "$nen" -ge "$nsec" ]
	check "fbt::security_*:entry: no kprobe registered ($nkp, $kp0 before)" [ "$nkp" = "$kp0" ]
	check "fbt::security_*:entry: detached (enabled_functions)" \
		bash -c "! grep -q '^security_' $tr/enabled_functions"
	# Attach/detach timing (reported, not asserted).
	# tdt NAME PROGRAM: ms from the start to BEGIN (start-up, matching,
	# loading, attaching), and from the exit() a second later to END (which
	# runs once everything is detached).
	tdt() {
		local t0
		t0=$(date +%s%N)
		timeout 600 "$dtrace" -x engine=bpf -qn "$2"'
		    dtrace:::BEGIN { printf("begin %d\n", walltimestamp); }
		    profile:::tick-1s { printf("stop %d\n", walltimestamp); exit(0); }
		    dtrace:::END { printf("end %d\n", walltimestamp); }' >"$w/$1.out" 2>"$w/$1.err"
		echo $? >"$w/$1.rc"
		echo "$(( ($(val_last "$w/$1.out" begin) - t0) / 1000000 ))" \
			"$(( ($(val_last "$w/$1.out" end) - $(val_last "$w/$1.out" stop)) / 1000000 ))" >"$w/$1.ms"
		sed 's/^/! /' "$w/$1.err" | head -5
	}
	tbt() { # tbt NAME PROBES: bpftrace's whole run, ms
		local t0
		t0=$(date +%s%N)
		BPFTRACE_MAX_PROBES=100000 timeout 600 bpftrace -e "$2"' BEGIN { exit(); }' >"$w/$1.out" 2>&1
		echo $? >"$w/$1.rc"
		echo $(( ($(date +%s%N) - t0) / 1000000 )) >"$w/$1.ms"
	}
	tdt t_none ''
	tdt t_vfs 'fbt::vfs_*:entry { }'
	check "timing: fbt::vfs_*:entry attached, exit 0" [ "$(rc t_vfs)" = 0 ]
	tdt t_sec 'fbt::security_*:entry { }'
	# A glob of 21,000 functions: attached, fired, detached.
	tdt t_am 'fbt::[a-m]*:entry { @ = count(); } dtrace:::END { printa("calls %@d\n", @); }'
	check "fbt::[a-m]*:entry: attached, exit 0" [ "$(rc t_am)" = 0 ]
	check "fbt::[a-m]*:entry: calls counted ($(val_last "$w/t_am.out" calls))" [ "$(val_last "$w/t_am.out" calls)" -gt 0 ]
	check "fbt::[a-m]*:entry: detached (enabled_functions)" [ "$(grep -c . $tr/enabled_functions)" -lt 100 ]
	local ts=(t_none t_vfs t_sec t_am)
	if [ "$FBT_MODE" = multi-bench ]; then
		tdt t_all 'fbt:::entry { }'
		check "fbt:::entry: attached, exit 0" [ "$(rc t_all)" = 0 ]
		ts+=(t_all)
	fi
	for t in "${ts[@]}"; do
		echo "# timing $t: start->BEGIN, exit()->END (ms): $(cat "$w/$t.ms")"
	done
	"$dtrace" -l -n 'fbt:::entry' >"$w/all.l"
	echo "# functions: vfs_* $(grep -c ' vfs_[^ ]* entry$' "$w/all.l")," \
		"security_* $(grep -c ' security_[^ ]* entry$' "$w/all.l")," \
		"[a-m]* $(grep -c ' [a-m][^ ]* entry$' "$w/all.l"), all $(grep -c ' entry$' "$w/all.l")"
	if [ "$FBT_MODE" = multi-bench ] && command -v bpftrace >/dev/null; then
		tbt b_none ''
		tbt b_vfs 'kprobe:vfs_* { }'
		tbt b_sec 'kprobe:security_* { }'
		tbt b_all 'kprobe:* { }'
		for t in b_none b_vfs b_sec b_all; do
			echo "# timing bpftrace $t: whole run (ms) $(cat "$w/$t.ms"), exit $(rc $t)"
			head -3 "$w/$t.out" | sed 's/^/! /'
		done
	fi
}

# ---- 6. torture (a function: vm.fbt612 runs it after section 5b alone) ----------

# torture: consumers of a big glob started and killed (-9, TERM) in a loop
# for $torture seconds while `dtrace -l -P fbt` runs; then nothing is left.
torture() {
	# The issue's glob, fbt::[a-m]*:entry, where an engine can arm it in
	# seconds: bpf with kprobe_multi (one link, 6.12). kmod: each kprobe armed
	# is an ftrace update of its own (~0.1 s under emulation: arming all
	# 18,866 would take half an hour), so its consumers are killed (-9:
	# dtrace_fbt stops enabling at a fatal signal, the core rolls back) while
	# they provide or enable. bpf without kprobe_multi (6.1): a kprobe per
	# function, so a smaller glob.
	if [ "$engine" = kmod ] || [ "$fprobe" = 1 ]; then
		glob=${BIG_GLOB:-fbt::[a-m]*:entry}
	else
		glob=${BIG_GLOB:-fbt::vfs_[a-m]*:entry}
	fi
	maxs=8
	end=$((SECONDS + torture))
	lister_start "$end" -P fbt
	cycles=0
	kills=0
	while [ $SECONDS -lt $end ]; do
		"$dtrace" -x engine="$engine" -qn "$glob { @[probefunc] = count(); }" \
			>/dev/null 2>>"$w/tchurn.err" &
		pid=$!
		# Sometimes while it enables its probes, mostly while it traces
		# (enabling thousands of functions takes ~20 s under emulation).
		sleep "0.$((RANDOM % 9 + 1))"
		if [ "$engine" = kmod ] && [ $((cycles % 3)) != 2 ]; then
			# Two in three: killed while it enables (kprobes being armed).
			for _ in $(seq 600); do [ "$(armed)" -gt 0 ] && break; sleep 0.1; done
			sleep "0.$((RANDOM % 9 + 1))"
			[ $((RANDOM % 2)) = 0 ] && sleep $((RANDOM % 4 + 1))
		elif [ $((RANDOM % 4)) != 0 ]; then
			sleep $((RANDOM % maxs + 1))
		fi
		if [ "$engine" = kmod ] || [ $((cycles % 2)) = 0 ]; then
			end_consumer $pid KILL 60
			kills=$((kills + 1))
		else
			end_consumer $pid TERM 60
		fi
		cycles=$((cycles + 1))
		echo "# [$SECONDS s] consumer $cycles of $glob ended"
	done
	lister_check
	echo "# torture: $cycles consumers of $glob ($kills killed with -9), $(cat "$w/tlist.n") listings"
	check "torture: at least 2 consumers started and killed" [ "$cycles" -ge 2 ]
	check "torture: every consumer ended on its signal" [ ! -s "$w/thang" ]
	sleep 1
	check "torture: no kprobe left" [ "$(kprobes)" = "$kp0" ]
	if [ "$engine" = kmod ]; then
		check "torture: no consumer left open" [ "$(consumers)" = 0 ]
		check "torture: nothing enabled (dtrace_fbt refcnt 0)" [ "$(refcnt dtrace_fbt)" = 0 ]
		check "torture: nothing armed" [ "$(armed)" = 0 ]
		p=/sys/module/dtrace_fbt/parameters
		echo "# torture: dtrace_fbt has $(cat $p/functions 2>/dev/null) functions," \
			"registered $(cat $p/by_address 2>/dev/null) kprobes by address (enablings interrupted and rolled back)"
		for m in dtrace_fbt dtrace_profile dtrace_syscall dtrace; do
			if loaded $m; then check "torture: rmmod $m" rmmod $m; fi
		done
		check "torture: no module left" bash -c '! grep -q "^dtrace" /proc/modules'
	fi

}

if [ "${FBT_MODE:-}" = multi ] || [ "${FBT_MODE:-}" = multi-bench ]; then
	[ "$engine" = bpf ] && [ "$fprobe" = 1 ] || notok "FBT_MODE=$FBT_MODE needs the bpf engine on a kernel with fprobes"
	[ "$engine" = bpf ] && [ "$fprobe" = 1 ] && fbt_multi
	[ "$FBT_MODE" = multi ] && [ "$torture" -gt 0 ] && torture
	echo "fbt $engine: $nfail failed"
	echo "FBT $engine DONE"
	exit 0
fi

# ---- 1. entry counts ---------------------------------------------------------

# dd reads 300 times with bs=7 (and the dynamic linker a few more).
dt count -qn 'fbt::vfs_read:entry /pid == $target/ { @ = count(); } dtrace:::END { printa("reads %@d\n", @); }' \
	-c 'dd if=/dev/zero of=/dev/null bs=7 count=300 status=none'
n=$(val_last "$w/count.out" reads)
check "vfs_read:entry: exit 0" [ "$(rc count)" = 0 ]
check "vfs_read:entry: dd's 300 reads counted ($n, at most 20 from ld.so)" \
	[ "$n" -ge 300 ] && [ "$n" -le 320 ]

# ---- 2. return values ---------------------------------------------------------

dt ret -qn 'fbt::vfs_read:return /pid == $target/ { @[args[1]] = count(); } dtrace:::END { printa("ret%d %@d\n", @); }' \
	-c 'dd if=/dev/zero of=/dev/null bs=7 count=200 status=none'
check "vfs_read:return: exit 0" [ "$(rc ret)" = 0 ]
check "vfs_read:return: args[1] == 7 exactly 200 times" [ "$(val_last "$w/ret.out" ret7)" = 200 ]
dt quant -qn 'fbt::vfs_read:return /pid == $target/ { @ = quantize(args[1]); }' \
	-c 'dd if=/dev/zero of=/dev/null bs=100 count=50 status=none'
check "quantize(args[1]): exit 0" [ "$(rc quant)" = 0 ]
check "quantize(args[1]): the 64 bucket holds dd's 50 reads" \
	has "$w/quant.out" '^ +64 \|@+ +5[0-9] *$'

# ---- 3. typed entry arguments -------------------------------------------------

dt typed -qn 'fbt::vfs_read:entry /pid == $target/ { @[args[2]] = count(); } dtrace:::END { printa("count%d %@d\n", @); }' \
	-c 'dd if=/dev/zero of=/dev/null bs=13 count=40 status=none'
check "args[2] (size_t count): 13 exactly 40 times" [ "$(val_last "$w/typed.out" count13)" = 40 ]
dt lv -lv -n 'fbt::vfs_read:entry'
check "-lv: args[2] is size_t" has "$w/lv.out" 'args\[2\]: size_t'
# -lv is DTrace's format; -x engines adds the table: both engines run fbt here.
dt engines -l -x engines -n 'fbt::vfs_read:entry'
check "-x engines: fbt runs on the bpf and kmod engines" \
	has "$w/engines.out" '^ +fbt +- +yes +yes '

# ---- 3a. kernel stacks -----------------------------------------------------------

# As illumos' aframes: at fbt entry and return the stack begins at the probed
# function's caller (its return site), past the tracer's own frames (the BPF
# program and its trampoline, kprobe/ftrace/rethook handlers) and the
# function's entry; caller is that frame and stackdepth counts from it. At a
# system call probe (a tracepoint) it begins at the tracepoint's call site,
# past the tracepoint's dispatch (bpf_trace_runN, __bpf_trace_sys_enter, and
# __traceiter_sys_enter while another probe shares the tracepoint).
#
# The kernel's own unwinder says what the frames are: ftrace's stacktrace
# trigger (with offsets) on a kprobe event at ksys_write and on the
# raw_syscalls events of write(2); each of its stacks less the tracer's
# frames up to ksys_write's entry or the event's handler (and iterator) is
# the reference, "do_syscall_64+0x5d" per line, in $w/ref-<kind>. With
# ITER=1 the raw_syscalls triggers stay while dtrace runs, so that the
# tracepoints call their probes through their iterators.
#
# kstack NAME (after VAR=value...): dd writes one byte; each firing of
# fbt::ksys_write and syscall::write entry and return prints "<prov>:<name>
# caller X depth D", stack(1), stack() and "end", and @[stack()] counts;
# per probe: its frames agree (stack(1), caller, stackdepth), none is the
# tracer's, none shows twice in a row, they are the reference's, and the
# aggregation's key holds them.
kstack_ref() {
	local t=/sys/kernel/tracing e
	echo 1 >$t/options/sym-offset
	echo 'p:dtvm_kw ksys_write' >>$t/kprobe_events && echo stacktrace >$t/events/kprobes/dtvm_kw/trigger
	for e in sys_enter sys_exit; do
		echo 'stacktrace if id == 1' >$t/events/raw_syscalls/$e/trigger
	done
	echo >$t/trace
	echo 1 >$t/tracing_on
	dd if=/dev/zero of=/dev/null bs=1 count=1 status=none
	# Nothing more (every write(2) would add a stack), while read and after;
	# read before the kprobe event goes (that empties the buffer).
	echo 0 >$t/tracing_on
	cp $t/trace "$w/ftrace.txt"
	echo >$t/trace
	echo '!stacktrace' >$t/events/kprobes/dtvm_kw/trigger && echo '-:dtvm_kw' >>$t/kprobe_events
	# The first stack of each kind, from the frame after the tracer's.
	awk -v w="$w" '/^ => / { f = $2; sub(/\/0x[0-9a-f]+$/, "", f)
		    if (f ~ /^ksys_write\+/) { kind = "fbt"; n = 0; next }
		    if (f ~ /^(trace_event_raw_event_sys_|__traceiter_sys_)(enter|exit)\+/) {
			kind = f ~ /enter/ ? "sys_enter" : "sys_exit"; n = 0; next }
		    if (kind != "" && !(kind in done)) { fr[kind, ++n] = f; cnt[kind] = n } next }
		{ if (kind != "") done[kind] = 1; kind = "" }
		END { for (k in cnt) for (i = 1; i <= cnt[k]; i++) print fr[k, i] > (w "/ref-" k) }' \
		"$w/ftrace.txt"
}
kstack_unref() {
	local e
	for e in sys_enter sys_exit; do
		echo '!stacktrace' >/sys/kernel/tracing/events/raw_syscalls/$e/trigger
	done
	echo 1 >/sys/kernel/tracing/tracing_on
}
kstack() {
	local n=$1 p ref
	rm -f "$w"/ref-*
	kstack_ref
	[ "${ITER:-0}" = 1 ] || kstack_unref
	dt "$n" -qn 'fbt::ksys_write:entry,fbt::ksys_write:return,syscall::write:entry,syscall::write:return
	    /pid == $target/ {
	    printf("%s:%s caller %a depth %d\n", probeprov, probename, caller, stackdepth); stack(1); stack();
	    printf("end\n"); @[stack()] = count(); }' -c 'dd if=/dev/zero of=/dev/null bs=1 count=1 status=none'
	[ "${ITER:-0}" = 1 ] && kstack_unref
	for p in fbt:entry fbt:return syscall:entry syscall:return; do
		ref=$w/ref-fbt
		[ "$p" = syscall:entry ] && ref=$w/ref-sys_enter
		[ "$p" = syscall:return ] && ref=$w/ref-sys_exit
		# Frame k of the firing's stack() (symbol+offset, no module) in
		# f[k]; "bad: why" or "ok".
		awk -v p="$p" -v ref="$ref" -v agg="$w/$n.out" '
			BEGIN { while ((getline l < ref) > 0) r[++nr] = l }
			$1 == p && $2 == "caller" { c = $3; d = $5; n = 0; next }
			c != "" && $1 == "end" { why = ""
			    if (n < 2 || f[1] != c || f[2] != c || n - 1 != d) why = "stack(1), caller, stackdepth disagree"
			    else if (c ~ /kprobe|ftrace|rethook|trampoline|__this_module|^bpf`|bpf_trace|__traceiter/ ||
				c ~ /ksys_write/ && p ~ /^fbt/) why = "a tracer frame first"
			    for (k = 2; k < n && why == ""; k++) if (f[k] == f[k + 1]) why = "frame " f[k] " twice in a row"
			    if (why == "" && nr == 0) why = "no reference stack from ftrace"
			    if (why == "" && nr != n - 1) why = "frames: " n - 1 " here, " nr " by ftrace"
			    for (k = 1; k <= nr && why == ""; k++) { g = f[k + 1]; sub(/^[^`]*`/, "", g)
				if (g != r[k]) why = "frame " k ": " g " here, " r[k] " by ftrace" }
			    # The aggregation printed at the end: these frames, in order, then a count.
			    if (why == "") { key = ""; for (k = 2; k <= n; k++) key = key "\n" f[k]
				m = 0; while ((getline l < agg) > 0) { gsub(/^ +| +$/, "", l); a[++m] = l }
				close(agg); hit = 0
				for (i = 1; i + n - 2 <= m && !hit; i++) { s = ""
				    for (k = 0; k < n - 1; k++) s = s "\n" a[i + k]
				    if (s == key && a[i + n - 1] ~ /^[0-9]+$/ && a[i - 1] == "") hit = 1 }
				if (!hit) why = "no @[stack()] key of these frames" }
			    print why == "" ? "ok" : "bad: " why; c = ""; done = 1; exit }
			c != "" && NF { f[++n] = $1 }
			END { if (!done) print "bad: no firing" }' "$w/$n.out" >"$w/$n.$p.chk"
		check "$n: $p: stack() from where the probe is, each frame once, as the kernel's unwinder: $(cat "$w/$n.$p.chk")" \
			[ "$(cat "$w/$n.$p.chk")" = ok ]
	done
}
ITER=1 kstack kstack

# ---- 3b. bpf: fentry/fexit, and kprobes as the fallback ------------------------

if [ "$engine" = bpf ]; then
	# Sections 1-3 ran on the method the plugin chose: on a kernel with
	# BPF trampolines and BTF, fentry/fexit (attach_method.hpp).
	DTRACE_DEBUG=1 dt method -qn 'fbt::vfs_read:entry /pid == $target/ { @ = count(); }' \
		-c 'dd if=/dev/zero of=/dev/null bs=1 count=1 status=none'
	if [ -r /sys/kernel/btf/vmlinux ]; then
		check "bpf: fbt attaches with fentry/fexit on this kernel" \
			has "$w/method.err" 'attaches with fentry/fexit'
	fi
	# Typed through the trampoline: a struct member behind args[0].
	dt ftyped -qn 'fbt::vfs_read:entry /pid == $target/ {
	    @[stringof(args[0]->f_path.dentry->d_name.name)] = count(); }
	    dtrace:::END { printa("file %s %@d\n", @); }' \
		-c 'dd if=/dev/zero of=/dev/null bs=5 count=30 status=none'
	check "fentry: args[0]->f_path.dentry->d_name.name is \"zero\" 30 times" \
		has "$w/ftyped.out" '^file zero 30$'
	# The same counts and return values through kprobes/kretprobes.
	DTRACE_FBT_ATTACH=kprobe dt kprobe -qn 'fbt::vfs_read:entry /pid == $target/ { @e = count(); }
	    fbt::vfs_read:return /pid == $target && args[1] == 7/ { @r = count(); }
	    dtrace:::END { printa("entries %@d\n", @e); printa("ret7 %@d\n", @r); }' \
		-c 'dd if=/dev/zero of=/dev/null bs=7 count=200 status=none'
	n=$(val_last "$w/kprobe.out" entries)
	check "kprobe: vfs_read entries of dd ($n: 200 and at most 20 from ld.so)" \
		[ "$n" -ge 200 ] && [ "$n" -le 220 ]
	check "kretprobe: args[1] == 7 exactly 200 times" [ "$(val_last "$w/kprobe.out" ret7)" = 200 ]
	DTRACE_FBT_ATTACH=kprobe kstack kstack-kprobe
fi

# ---- 4. a module's functions ---------------------------------------------------

m9p=$(awk '$1 ~ /^9p/ { print $1; exit }' /proc/modules)
if [ "$m9p" = 9p ]; then
	dt mod9p -qn 'fbt:9p::entry /pid == $target/ { @ = count(); } dtrace:::END { printa("calls %@d\n", @); }' \
		-c 'cat /etc/hostname /etc/passwd'
	check "fbt:9p::entry fires for cat ($(val_last "$w/mod9p.out" calls))" [ "$(val_last "$w/mod9p.out" calls)" -gt 0 ]
else
	echo "# 9p is not a module in this guest: fbt:9p:: skipped"
fi
if modprobe -d "$DTRACE_VM_ROOT" loop 2>"$w/modprobe.err"; then
	# Traced while loop.ko goes away and comes back.
	"$dtrace" -x engine="$engine" -qn 'fbt:loop::entry { @[probefunc] = count(); }
	    dtrace:::BEGIN { printf("tracing\n"); }
	    profile:::tick-1s /++i == 8/ { exit(0); } dtrace:::END { printa("%s %@d\n", @); }' \
		>"$w/loop.out" 2>"$w/loop.err" &
	pid=$!
	for _ in $(seq 600); do has "$w/loop.out" '^tracing$' && break; sleep 0.1; done
	sleep 1
	losetup -f >/dev/null 2>&1
	rmmod loop 2>>"$w/modprobe.err"
	if [ "$engine" = bpf ] && [ "$fprobe" = 1 ]; then
		# A kprobe_multi link holds its functions' modules, as illumos
		# holds a module while fbt probes in it are enabled.
		check "loop.ko held while fbt:loop:: is enabled (kprobe_multi: rmmod refused)" \
			grep -q "^loop " /proc/modules
	else
		check "loop.ko unloaded while fbt:loop:: is enabled" bash -c '! grep -q "^loop " /proc/modules'
	fi
	modprobe -d "$DTRACE_VM_ROOT" loop
	losetup -f >/dev/null 2>&1
	wait $pid
	echo $? >"$w/loop.rc"
	echo "== loop: fbt:loop::entry across rmmod loop (exit $(rc loop))"
	sed 's/^/| /' "$w/loop.out" | head -20
	sed 's/^/! /' "$w/loop.err" | head -10
	check "fbt:loop::entry: exit 0 across the unload" [ "$(rc loop)" = 0 ]
	check "fbt:loop::entry: loop's functions fired" has "$w/loop.out" '^loop_[a-z_]+ [1-9]'
	rmmod loop
else
	notok "modprobe loop: $(cat "$w/modprobe.err")"
fi

# ---- 5. large globs ------------------------------------------------------------

dt vfs -qn 'fbt::vfs_*:entry /pid == $target/ { @[probefunc] = count(); }
    dtrace:::END { printa("%s %@d\n", @); }' -c 'cat /etc/hostname'
check "fbt::vfs_*:entry: exit 0" [ "$(rc vfs)" = 0 ]
check "fbt::vfs_*:entry: vfs_read fired" has "$w/vfs.out" '^vfs_read [1-9]'
if [ "$engine" = bpf ]; then
	# Attach and detach time by method (printed, not asserted: the
	# whole command, start-up included). Above DTRACE_BPF_TRAMPOLINE_MAX
	# (8) trampolines the engine attaches kprobes (attach.hpp): the
	# vfs run above; here fentry/fexit forced for the same glob.
	# (Not with fprobes: 76 trampolines take a minute there, and 5b times the globs.)
	[ "$fprobe" = 1 ] || DTRACE_BPF_TRAMPOLINE_MAX=100000 dt vfsf -qn 'fbt::vfs_*:entry /pid == $target/ {
	    @[probefunc] = count(); } dtrace:::END { printa("%s %@d\n", @); }' -c 'cat /etc/hostname'
	[ "$fprobe" = 1 ] ||
		check "fbt::vfs_*:entry on fentry: vfs_read fired" has "$w/vfsf.out" '^vfs_read [1-9]'
	"$dtrace" -l -n 'fbt:vmlinux:vfs_*:entry' -n 'fbt:vmlinux:security_*:entry' >"$w/globs.l"
	nvfs=$(grep -c ' vfs_.* entry$' "$w/globs.l")
	# A glob of hundreds of functions (kprobes, the engine's choice).
	nbig=$(grep -c ' security_.* entry$' "$w/globs.l")
	dt big -qn 'fbt::security_*:entry /pid == $target/ { @ = count(); }
	    dtrace:::END { printa("calls %@d\n", @); }' -c 'cat /etc/hostname'
	check "fbt::security_*:entry ($nbig functions): exit 0" [ "$(rc big)" = 0 ]
	check "fbt::security_*:entry: cat's calls counted" [ "$(val_last "$w/big.out" calls)" -gt 0 ]
	echo "# attach+run+detach: fbt::vfs_*:entry ($nvfs functions) kprobes $(secs vfs) s," \
		"fentry $([ "$fprobe" = 1 ] && echo - || secs vfsf) s; fbt::security_*:entry ($nbig) kprobes $(secs big) s"
fi
if [ "$engine" = kmod ]; then
	if [ -n "${BIG_GLOB:-}" ]; then
		dt am -qn "$BIG_GLOB"' { @ = count(); } profile:::tick-1s { exit(0); } dtrace:::END { printa("calls %@d\n", @); }'
		check "$BIG_GLOB: exit 0" [ "$(rc am)" = 0 ]
		check "$BIG_GLOB: calls counted" [ "$(val_last "$w/am.out" calls)" -gt 1000 ]
	fi
	p=/sys/module/dtrace_fbt/parameters
	echo "# dtrace_fbt: $(cat $p/functions) functions, $(cat $p/refused) refused, $(cat $p/missed) missed"
	# Enabling cost: by name (the kprobe core's walk of every kernel
	# symbol on 6.1) against the address the plugin hands over, which
	# dtrace_fbt checks with sprint_symbol() (a binary search).
	a0=$(cat $p/by_address)
	DTRACE_FBT_KMOD_BY_NAME=1 dt vfsname -qn 'fbt::vfs_*:entry { } dtrace:::BEGIN { exit(0); }'
	a1=$(cat $p/by_address)
	dt vfsaddr -qn 'fbt::vfs_*:entry { } dtrace:::BEGIN { exit(0); }'
	a2=$(cat $p/by_address)
	# Return probes (kretprobes) by address too.
	dt retaddr -qn 'fbt::vfs_*:return /pid == $target/ { @[probefunc] = count(); }
	    fbt::vfs_read:return /pid == $target && arg1 == 5/ { @r = count(); }
	    dtrace:::END { printa("ret5 %@d\n", @r); }' -c 'dd if=/dev/zero of=/dev/null bs=5 count=20 status=none'
	a3=$(cat $p/by_address)
	check "fbt::vfs_*:return by address: $((a3 - a2)) kretprobes by address, vfs_read returned 5 20 times" \
		[ "$(rc retaddr)" = 0 ] && [ $((a3 - a2)) -ge 50 ] && [ "$(val_last "$w/retaddr.out" ret5)" = 20 ]
	check "fbt::vfs_*:entry by name: exit 0, nothing registered by address" \
		[ "$(rc vfsname)" = 0 ] && [ "$a1" = "$a0" ]
	check "fbt::vfs_*:entry by address: exit 0, $((a2 - a1)) registered by address" \
		[ "$(rc vfsaddr)" = 0 ] && [ $((a2 - a1)) -ge 50 ]
	echo "# enabling fbt::vfs_*:entry (and exiting): by name $(secs vfsname) s, by address $(secs vfsaddr) s"
	# What the kernel half refuses, whoever writes to it.
	wr() { echo "$1" >$p/provide 2>"$w/wr.err"; }
	check "provide: a line without a function is refused" bash -c "! echo vmlinux >$p/provide"
	check "provide: a bad name is refused" bash -c "! echo 'vmlinux vfs/read' >$p/provide"
	check "provide: a name too long is refused" \
		bash -c "! echo vmlinux \$(printf 'f%.0s' \$(seq 300)) >$p/provide"
	check "provide: the tracer's module is refused" bash -c "! echo 'dtrace dtrace_probe' >$p/provide"
	check "provide: a bad address is refused" bash -c "! echo 'vmlinux vfs_read 0xffff' >$p/provide"
	check "provide: an address too long is refused" \
		bash -c "! echo 'vmlinux vfs_read 1ffffffffffffffff' >$p/provide"
	# A wrong address (another function's) is not trusted: by name.
	wr "vmlinux vfs_read $(awk '$3 == "vfs_write" { print $1; exit }' /proc/kallsyms)"
	dt wrongaddr -qn 'fbt::vfs_read:entry /pid == $target/ { @ = count(); } dtrace:::END { printa("reads %@d\n", @); }' \
		-c 'dd if=/dev/zero of=/dev/null bs=7 count=30 status=none'
	n=$(val_last "$w/wrongaddr.out" reads)
	check "vfs_read given vfs_write's address: vfs_read's own entries ($n)" \
		[ "$n" -ge 30 ] && [ "$n" -le 50 ]
	check "provide: a known function is taken" wr "vmlinux vfs_read"
	# A name only the tracer's own module has, given as vmlinux: the
	# kprobe core resolves it into dtrace.ko, and dtrace_fbt refuses it
	# (EPERM; dtrace_probe itself is on the kprobe blacklist).
	wr "vmlinux dtrace_register" || true
	dt own -Z -qn 'fbt:vmlinux:dtrace_register:entry { } dtrace:::BEGIN { exit(0); }'
	check "fbt:vmlinux:dtrace_register:entry (dtrace.ko's): refused, exit 1" [ "$(rc own)" = 1 ]
	check "fbt:vmlinux:dtrace_register:entry: DTrace's error" \
		has "$w/own.err" '^dtrace: .*fbt:vmlinux:dtrace_register:entry: the provider refused to enable it \(-1\)'
	bl=$(awk '$2 ~ /^[a-z_]+$/ && $3 == "" { print $2; exit }' /sys/kernel/debug/kprobes/blacklist)
	if [ -n "$bl" ] && wr "vmlinux $bl"; then
		dt black -Z -qn "fbt:vmlinux:$bl:entry { } dtrace:::BEGIN { exit(0); }"
		check "fbt:vmlinux:$bl:entry (kprobe blacklist): refused, exit 1" [ "$(rc black)" = 1 ]
		check "fbt:vmlinux:$bl:entry: DTrace's error" \
			has "$w/black.err" "^dtrace: .*fbt:vmlinux:$bl:entry: the provider refused to enable it"
	else
		notok "no blacklisted function to try ($bl)"
	fi
	check "refusals counted" [ "$(cat $p/refused)" -ge 2 ]
	# Probes of refused functions stay until the module goes (a glob
	# matching them would fail): unload it, the torture starts afresh.
	check "dtrace_fbt unloads after the refusals" rmmod dtrace_fbt
fi
check "nothing left armed after the consumers" [ "$(armed)" = 0 ]
check "no kprobe left" [ "$(kprobes)" = "$kp0" ]

# ---- 5b. bpf: kprobe_multi (fbt_multi above) -----------------------------------

[ "$engine" = bpf ] && [ "$fprobe" = 1 ] && fbt_multi

# ---- 6. torture: torture() above ----------------------------------------------

[ "$torture" -gt 0 ] && torture

echo "fbt $engine: $nfail failed"
echo "FBT $engine DONE"
