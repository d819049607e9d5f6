#!/usr/bin/env bash
# Runs inside the VM guest (tests/vm/kmod-test.sh boots it once for all of
# this): loads dtrace.ko and dt_test.ko, runs kmod_client's checks, checks
# module safety (rmmod refused while in use, allowed after close; a
# consumer that dies mid-trace leaves nothing enabled), the syscall
# provider (dtrace_syscall.ko), the deadman and 100 load/unload cycles. Prints one line per step; exits non-zero at the first failure.
#
# Usage: kmod-guest.sh KMOD_BUILD_DIR KMOD_CLIENT
set -uo pipefail
core=$1/core/dtrace.ko
tst=$1/test/dt_test.ko
client=$2
fail() { echo "FAIL: $*"; exit 1; }
loaded() { grep -q "^$1 " /proc/modules; }

insmod "$core" || fail "insmod dtrace.ko"
[ -c /dev/dtrace ] || fail "no /dev/dtrace"
echo "step: /dev/dtrace $(stat -c '%a' /dev/dtrace)"
insmod "$tst" || fail "insmod dt_test.ko"
loaded dt_test || fail "dt_test not in /proc/modules"

"$client" run || fail "kmod_client run"

out=$("$client" open rmmod dt_test 2>&1)
echo "$out"
grep -q '^open: command exited [1-9]' <<<"$out" || fail "rmmod dt_test succeeded while /dev/dtrace was open"
out=$("$client" busy rmmod dt_test 2>&1)
echo "$out"
grep -q '^busy: command exited [1-9]' <<<"$out" || fail "rmmod dt_test succeeded while its probe was enabled"
loaded dt_test || fail "dt_test unloaded while in use"
rmmod dtrace 2>/dev/null && fail "rmmod dtrace succeeded while dt_test imports it"
echo "step: rmmod refused while in use"

"$client" abandon || fail "kmod_client abandon"
[ "$(cat /sys/kernel/debug/dt_test/enabled)" = 0 ] || fail "dt_test still enabled after its consumer died"
echo "step: a dead consumer's probes are disabled"

# The deadman: a consumer that stops calling STATUS is killed.
"$client" deadman || fail "kmod_client deadman"
echo "step: deadman"

insmod "$1/syscall/dtrace_syscall.ko" || fail "insmod dtrace_syscall.ko"
"$client" syscall || fail "kmod_client syscall"
# Enable/disable syscall::: in a loop while another consumer lists probes.
"$client" churn 20 &
churn=$!
"$client" list 20 || fail "kmod_client list"
wait $churn || fail "kmod_client churn"
rmmod dtrace_syscall || fail "rmmod dtrace_syscall"
echo "step: syscall provider"

rmmod dt_test || fail "rmmod dt_test after close"
rmmod dtrace || fail "rmmod dtrace"
echo "step: rmmod after close"

for i in $(seq 100); do
	insmod "$core" && insmod "$tst" || fail "cycle $i: insmod"
	if [ $((i % 10)) = 0 ]; then
		"$client" open true >/dev/null || fail "cycle $i: open"
	fi
	rmmod dt_test && rmmod dtrace || fail "cycle $i: rmmod"
done
loaded dtrace && fail "dtrace still loaded after the cycles"
echo "cycles: 100"
echo "ALL DONE"
