#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fbt's overhead and attach time on both engines beside bpftrace, in one
# VM tier boot (Debian's 6.1 under TCG: kprobes and fentry, no
# kprobe_multi): builds dtrace.ko, dtrace_fbt.ko and dtrace_profile.ko
# and bench/fbt-loop.c, then in the guest:
#
#   per call    the loop's ns per getppid() with nothing traced, then run by
#               dtrace -c: fbt::__task_pid_nr_ns:entry /pid == $target/ { @ = count(); } on the kmod
#               and bpf engines (bpf: fentry, the plugin's choice here, and kprobe
#               with DTRACE_FBT_ATTACH=kprobe), bpftrace -c with kprobe: and kfunc: of the same
#               function (each the median of 3 runs of N calls)
#   attach      wall time of a whole command that enables the probes and
#               exits at once (BEGIN { exit(0); }): fbt::vfs_*:entry on
#               both engines (bpf: kprobes, the engine's choice for a glob,
#               and fentry forced), bpftrace's kprobe:vfs_* and kfunc:vfs_*;
#               fbt::a*:entry on the kmod engine (a kprobe per function, an
#               ftrace update each: fbt:::entry, 37,000 of them, would take
#               most of an hour under TCG)
#
# Not a ctest: timings are reported (docs/perf.md), never asserted; under
# emulation only ratios between rows of one run mean anything.
#
# Usage: bench/fbt-vm-bench.sh [BUILD_DIR [N]]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${2:-20000}
[ -x "$build/bin/dtrace" ] || { echo "no $build/bin/dtrace" >&2; exit 1; }
export DTRACE_VM_CACHE=${DTRACE_VM_CACHE:-$build/vm}
work=$build/fbt-vm-bench
rm -rf "$work"
mkdir -p "$work/modules"
kbuild() { # kbuild SRC NAME [MAKE_ARG...]
	local src=$1 name=$2
	shift 2
	nice "$top/tools/vm/kbuild.sh" "$top/$src" "$work/build/$name" DTRACE_TOP="$top" "$@" -j2 \
		>"$work/kbuild-$name.log" 2>&1 ||
		{ cat "$work/kbuild-$name.log"; echo "building $src failed" >&2; exit 1; }
}
kbuild kmod/core core
for p in fbt profile; do
	kbuild plugins/$p/kernel $p KBUILD_EXTRA_SYMBOLS="$work/build/core/Module.symvers"
	cp "$work/build/$p/dtrace_$p.ko" "$work/modules/"
done
cp "$work/build/core/dtrace.ko" "$work/modules/"
cc -O2 -o "$work/fbt-loop" "$top/bench/fbt-loop.c"

cat >"$work/guest.sh" <<GUEST
export DTRACE_KMOD_DIR=$work/modules
d=$build/bin/dtrace
loop=$work/fbt-loop
fn=__task_pid_nr_ns
echo "# guest: \$(uname -r), \$(nproc) CPUs, bpftrace \$(bpftrace --version 2>/dev/null)"
med() { sort -n | sed -n 2p; }
base() { for i in 1 2 3; do \$loop $n; done | med; }
# traced NAME CMD...: the tracer runs the loop (-c), 3 times; the loop's
# median ns per call, and what the tracer counted (3 x $n expected).
traced() {
	local name=\$1 out=/run/\$1.out
	shift
	for i in 1 2 3; do "\$@" -c "\$loop $n" >\$out.\$i 2>&1; done
	echo "per-call \$name \$(for i in 1 2 3; do grep -m1 -E '^[0-9]+\$' \$out.\$i; done | med)"
	grep -h -E '^@|^ +[0-9]+ *\$' \$out.[123] | tr -s ' \n' ' ' | sed 's/^/#   counted: /'; echo
	grep -v -E '^[0-9]+\$|^@|^ *[0-9]* *\$' \$out.1 | head -3 | sed 's/^/#   said: /'
}
# since NAME CMD...: wall ms of a whole command
since() {
	local name=\$1 s=\$(date +%s%N)
	shift
	"\$@" >/run/\$name.out 2>&1
	echo "attach \$name \$(( (\$(date +%s%N) - s) / 1000000 )) ms (exit \$?)"
}
\$d -x engine=kmod -qn 'dtrace:::BEGIN { exit(0); }'   # load dtrace.ko first
echo "per-call none \$(base)"
traced kmod \$d -x engine=kmod -qn "fbt::\$fn:entry /pid == \\\$target/ { @ = count(); }"
traced bpf \$d -x engine=bpf -qn "fbt::\$fn:entry /pid == \\\$target/ { @ = count(); }"
traced bpf-kprobe env DTRACE_FBT_ATTACH=kprobe \$d -x engine=bpf -qn "fbt::\$fn:entry /pid == \\\$target/ { @ = count(); }"
traced bpftrace-kprobe bpftrace -e "kprobe:\$fn /pid == cpid/ { @ = count(); }"
traced bpftrace-kfunc bpftrace -e "kfunc:\$fn /pid == cpid/ { @ = count(); }"
echo "per-call none-again \$(base)"
since kmod-vfs \$d -x engine=kmod -qn 'fbt::vfs_*:entry { } dtrace:::BEGIN { exit(0); }'
since kmod-vfs-again \$d -x engine=kmod -qn 'fbt::vfs_*:entry { } dtrace:::BEGIN { exit(0); }'
since bpf-vfs \$d -x engine=bpf -qn 'fbt::vfs_*:entry { } dtrace:::BEGIN { exit(0); }'
since bpf-vfs-fentry env DTRACE_BPF_TRAMPOLINE_MAX=100000 \$d -x engine=bpf -qn 'fbt::vfs_*:entry { } dtrace:::BEGIN { exit(0); }'
since bpftrace-vfs-kfunc bpftrace -e 'kfunc:vfs_* { } BEGIN { exit(); }'
since bpftrace-vfs bpftrace -e 'kprobe:vfs_* { } BEGIN { exit(); }'
echo "# fbt::a*:entry: \$(\$d -l -n 'fbt::a*:entry' | grep -c entry) functions"
since kmod-a \$d -x engine=kmod -qn 'fbt::a*:entry { } dtrace:::BEGIN { exit(0); }'
echo "# dtrace_fbt: \$(cat /sys/module/dtrace_fbt/parameters/functions) functions, \$(cat /sys/module/dtrace_fbt/parameters/refused) refused, \$(cat /sys/module/dtrace_fbt/parameters/missed) missed"
grep -c . /run/bpftrace-vfs.out >/dev/null; head -2 /run/bpftrace-vfs.out | sed 's/^/#   /'
GUEST
rc=0
"$top/tools/vm/run.sh" -q -t 1500 -l "$work/console.log" -o "$work/bench.txt" \
	bash "$work/guest.sh" || rc=$?
cat "$work/bench.txt"
[ "$rc" = 0 ] || { echo "fbt-vm-bench: run.sh exited $rc (console: $work/console.log)" >&2; exit "$rc"; }
