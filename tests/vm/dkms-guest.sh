#!/usr/bin/env bash
# Runs inside the VM guest (tests/vm/dkms-test.sh boots it): bin/dtrace on
# the kmod engine loads the modules DKMS built (dtrace.ko, the syscall and
# profile providers) and traces with them. Prints "ok - ..." / "not ok -
# ..." lines, then "dkms: N failed" and "ALL DONE".
#
# Usage: dkms-guest.sh DTRACE_BINARY MODULE_DIR
set -uo pipefail
dtrace=$1
export DTRACE_KMOD_DIR=$2
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
workdir dkms

"$dtrace" -x engine=kmod -qn 'syscall:::entry { @n = count(); }
    tick-200ms { printa("syscalls %@d\n", @n); exit(0); }' >"$w/out" 2>"$w/err" &
pid=$!
for _ in $(seq 50); do
	[ -c /dev/dtrace ] && loaded dtrace_syscall && break
	sleep 0.1
done
wait "$pid"
echo $? >"$w/run.rc"
cat "$w/out" "$w/err"
check "dtrace exits 0 on the kmod engine" [ "$(rc run)" = 0 ]
check "dtrace.ko (DKMS's build) is loaded" loaded dtrace
check "dtrace_syscall.ko is loaded" loaded dtrace_syscall
check "dtrace_profile.ko is loaded" loaded dtrace_profile
check "the aggregation was printed" has "$w/out" '^syscalls [1-9][0-9]*$'
echo "dkms: $nfail failed"
echo "ALL DONE"
