#!/usr/bin/env bash
# Runs inside the VM guest (tests/vm/kmod-sdk-test.sh boots it once): the
# out-of-tree hello provider, both halves built against the installed SDK
# and installed into PREFIX, traced by PREFIX's own dtrace on the kmod
# engine. No DTRACE_KMOD_DIR, no DTRACE_PLUGIN_PATH: dtrace finds
# dt_hello.so in <prefix>/lib/dtrace/plugins and loads dtrace.ko and
# dtrace_hello.ko from <prefix>/lib/dtrace/modules/<uname -r>. Prints
# dtrace's output and "ok - ..." / "not ok - ..." lines, then "ALL DONE".
#
# Usage: kmod-sdk-guest.sh PREFIX
set -uo pipefail
prefix=$1
unset DTRACE_KMOD_DIR DTRACE_PLUGIN_PATH
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir kmod-sdk
# waitfor PID FILE ERE: until a line of FILE matches, up to 120 s while
# PID runs (builtins only: every fork is slow under emulation).
waitfor() {
	local pid=$1 file=$2 re=$3 line i
	for ((i = 0; i < 240; i++)); do
		while IFS= read -r line; do
			[[ $line =~ $re ]] && return 0
		done <"$file"
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.5
	done
	return 1
}
step() { echo "# $*" >&2; } # progress on the console

check "dtrace_hello not loaded yet" bash -c '! grep -q "^dtrace_hello " /proc/modules'
# The ticks run while tick:fire is enabled (from ENABLE on: those before
# GO are not traced, so n need not start at 1); greet runs when we write.
"$prefix/bin/dtrace" -x engine=kmod -q -n 'dtrace:::BEGIN { i = 0; printf("ready\n"); }
	hello:demo:tick:fire /i < 3/ { printf("tick %d\n", args[0]); i++; }
	hello:demo:tick:fire /i == 3/ { printf("ticked\n"); i++; }
	hello:demo:greet:entry { printf("entry %s %d\n", stringof(args[0]), args[1]); }
	hello:demo:greet:return { printf("return %d\n", args[0]); exit(0); }' \
	>"$w/hello.out" 2>"$w/hello.err" &
pid=$!
step "dtrace started"
check "tick:fire fired 3 times" waitfor $pid "$w/hello.out" '^ticked$'
check "dtrace loaded dtrace_hello.ko from the prefix" loaded dtrace_hello
echo "# $(grep -E '^dtrace(_hello)? ' /proc/modules | cut -d' ' -f1-3 | tr '\n' ' ')"
[ -e /sys/kernel/debug/hello/greet ] && echo "world 5" >/sys/kernel/debug/hello/greet
step "greeted"
for ((i = 0; i < 240; i++)); do kill -0 $pid 2>/dev/null || break; sleep 0.5; done
kill $pid 2>/dev/null && notok "dtrace did not exit after greet:return"
wait $pid
echo "== hello (dtrace exit $?)"
step "dtrace exited"
sed 's/^/| /' "$w/hello.out"
sed 's/^/! /' "$w/hello.err"
check "three ticks, n consecutive" awk '/^tick [0-9]+$/ { n[k++] = $2 }
	END { exit !(k == 3 && n[1] == n[0] + 1 && n[2] == n[1] + 1) }' "$w/hello.out"
check "greet:entry: args[0] (a kernel string) and args[1]" has "$w/hello.out" '^entry world 5$'
check "greet:return: args[0] = 5 * strlen(\"world\")" has "$w/hello.out" '^return 25$'
check "nothing on stderr" [ ! -s "$w/hello.err" ]
check "no probe left enabled: dtrace_hello refcnt 0" [ "$(cat /sys/module/dtrace_hello/refcnt)" = 0 ]
check "rmmod dtrace_hello" rmmod dtrace_hello
check "rmmod dtrace" rmmod dtrace
echo "kmod sdk: $nfail failed"
echo "ALL DONE"
