# shellcheck shell=bash
# Helpers for ctest scripts of the VM tier; source it from bash:
#   . "$top/tools/vm/testlib.sh"; vm_setup WORKDIR
# vm_setup    makes WORKDIR (emptied) and sets vm_work, vm_log (console log),
#             vm_out (the command's stdout), vm_err (run.sh's stderr) and
#             vm_krel; it skips (exit 77, reason printed) when qemu or busybox
#             is missing or the kernel cannot be fetched.
# vm_run WANT [run.sh options] [--] CMD...   boots the guest; fails unless
#             run.sh exits WANT (0 for success, 243 for a kernel problem...).
# vm_kbuild SRC OUT [MAKE ARGS...]   builds a module dir against the
#             guest's headers (-j2; e.g. DTRACE_TOP=..., KBUILD_EXTRA_SYMBOLS=...
#             for a provider module, the core's Module.symvers).
# vm_expect FILE ERE  fails unless a line of FILE matches.
# vm_fail MSG / vm_skip MSG   exit 1 (printing the console log) / exit 77.
# shellcheck disable=SC2034 # vm_krel, vm_out are for the sourcing script
vm_tools=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

vm_skip() { echo "SKIP: $*"; exit 77; }
vm_fail() {
	echo "FAIL: $*"
	if [ -f "${vm_log:-}" ]; then
		echo "--- console log ($vm_log) ---"
		cat "$vm_log"
	fi
	exit 1
}

vm_setup() {
	vm_work=$1
	rm -rf "$vm_work"
	mkdir -p "$vm_work"
	vm_log=$vm_work/console.log
	vm_out=$vm_work/stdout.txt
	vm_err=$vm_work/run.err
	command -v qemu-system-x86_64 >/dev/null ||
		vm_skip "qemu-system-x86_64 not installed (tools/install-deps.sh)"
	[ -x /bin/busybox ] || vm_skip "busybox-static not installed (tools/install-deps.sh)"
	vm_krel=$("$vm_tools/fetch-kernel.sh") ||
		vm_skip "could not fetch Debian's kernel packages (see above)"
}

vm_run() {
	local want=$1 rc
	shift
	"$vm_tools/run.sh" -q -l "$vm_log" -o "$vm_out" "$@" 2>"$vm_err"
	rc=$?
	cat "$vm_err"
	[ "$rc" -eq "$want" ] || vm_fail "run.sh exited $rc, expected $want"
}

vm_expect() {
	grep -a -q -E -- "$2" "$1" || vm_fail "no line matching /$2/ in $1"
}

vm_kbuild() {
	local blog
	blog=$vm_work/kbuild-$(basename "$2").log
	nice "$vm_tools/kbuild.sh" "$@" -j2 >"$blog" 2>&1 ||
		{ cat "$blog"; vm_fail "building the module in $1 failed"; }
}
