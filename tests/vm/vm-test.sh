#!/usr/bin/env bash
# The VM tier's own tests (ctest label vm): tools/vm/run.sh boots Debian's
# kernel under QEMU/TCG and reports what the guest did.
#
# Usage: vm-test.sh CASE WORKDIR
#   CASE: uname | status | no_result | timeout | warn | oops | panic | module
#   WORKDIR: this test's scratch directory (logs, the built module).
# Exit 0 pass, 1 fail, 77 skip (printed reason: no qemu, no kernel to fetch).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/vm/testlib.sh"
case_=$1
vm_setup "$2"
hello=$vm_work/hello/hello.ko
build_hello() {
	vm_kbuild "$top/tests/vm/hello" "$vm_work/hello"
	[ -f "$hello" ] || vm_fail "no $hello"
}

case $case_ in
uname)
	# The guest runs the host's uname through the chroot and reports the
	# fetched Debian kernel, not this machine's; host files are visible,
	# /tmp included, and /run is writable.
	probe=$(mktemp /tmp/dtrace-vm-probe.XXXXXX)
	trap 'rm -f "$probe"' EXIT
	echo "probe-$$-$RANDOM" >"$probe"
	vm_run 0 -t 240 bash -c "uname -r; cat $probe; echo w >/run/x && cat /run/x"
	[ "$(sed -n 1p "$vm_out")" = "$vm_krel" ] || vm_fail "guest uname -r '$(sed -n 1p "$vm_out")', expected '$vm_krel'"
	[ "$vm_krel" != "$(uname -r)" ] || vm_fail "the host runs $vm_krel too: cannot tell guest from host"
	[ "$(sed -n 2p "$vm_out")" = "$(cat "$probe")" ] || vm_fail "the guest did not read the host's $probe"
	[ "$(sed -n 3p "$vm_out")" = w ] || vm_fail "/run is not writable in the guest"
	[ "$(wc -l <"$vm_out")" -eq 3 ] || vm_fail "stdout has more than the 3 lines expected"
	;;
status)
	# stdout arrives byte for byte (-o), stderr on the console.
	"$top/tools/vm/run.sh" >/dev/null 2>&1
	[ $? -eq 240 ] || vm_fail "run.sh without a command did not exit 240"
	vm_run 7 -t 240 bash -c 'printf "before\tx\r\n"; echo to-stderr >&2; exit 7'
	[ "$(od -An -c "$vm_out" | tr -s ' ')" = " b e f o r e \t x \r \n" ] ||
		vm_fail "stdout is not exact: $(od -An -c "$vm_out")"
	vm_expect "$vm_log" '^to-stderr$'
	;;
no_result)
	# The guest powers off (sysrq o) before init can report: 242.
	vm_run 242 -t 240 bash -c 'echo o >/proc/sysrq-trigger; sleep 60'
	vm_expect "$vm_err" 'vm: no result'
	;;
timeout)
	# A hung command is killed and reported as a timeout (on a very busy
	# host the boot itself may be what runs out of time: also 241).
	vm_run 241 -t 60 sleep 600
	vm_expect "$vm_err" 'vm: timeout: the (command did not finish|guest did not boot) in 60s'
	;;
warn)
	build_hello
	vm_run 243 -t 240 insmod "$hello" warn=1
	vm_expect "$vm_log" 'WARNING: .*hello_init'
	vm_expect "$vm_log" 'hello: warning requested by warn=1'
	vm_expect "$vm_err" 'vm: kernel problem: kernel tainted'
	;;
oops)
	build_hello
	vm_run 243 -t 240 insmod "$hello" oops=1
	vm_expect "$vm_log" 'BUG: kernel NULL pointer dereference'
	vm_expect "$vm_err" 'vm: kernel problem'
	;;
panic)
	vm_run 243 -t 240 bash -c 'echo c >/proc/sysrq-trigger'
	vm_expect "$vm_err" 'vm: kernel problem: .*Kernel panic'
	;;
module)
	build_hello
	modinfo -F vermagic "$hello" | grep -q "^$vm_krel " ||
		vm_fail "hello.ko vermagic '$(modinfo -F vermagic "$hello")' is not for $vm_krel"
	# Ours with insmod, one of the image's with modprobe -d (see run.sh).
	vm_run 0 -t 240 bash -c "insmod $hello && grep -c '^hello ' /proc/modules && rmmod hello &&
		! grep '^hello ' /proc/modules && modprobe -d \"\$DTRACE_VM_ROOT\" dummy &&
		grep -o '^dummy ' /proc/modules"
	[ "$(cat "$vm_out")" = "$(printf '1\ndummy ')" ] || vm_fail "stdout '$(cat "$vm_out")', expected 1, dummy"
	vm_expect "$vm_log" '\] hello: loaded$'
	vm_expect "$vm_log" '\] hello: unloaded$'
	;;
*)
	vm_fail "unknown case $case_"
	;;
esac
echo "PASS: $case_"
