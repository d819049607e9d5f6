#!/usr/bin/env bash
# Run one command in a QEMU (TCG) guest booting Debian's stock amd64 kernel,
# with this machine's root shared read-only, and classify the outcome.
#
# Usage: run.sh [-t SECONDS] [-l LOG] [-o OUT] [-a ARGS] [-c CPUS] [-q] [--] COMMAND [ARG...]
#   COMMAND runs as root under bash in the guest, chrooted into the host's root,
#   in the current directory (if the guest can see it), stdin /dev/null.
#   -t  kill the guest after SECONDS (default $DTRACE_VM_TIMEOUT or 300)
#   -l  the guest's console log (default <cache>/logs/run-<date>-<pid>.log)
#   -o  write the command's stdout, byte for byte, to OUT (through a second
#       serial port, so no kernel message is mixed in); else it goes to the
#       console with stderr and the kernel's messages
#   -q  do not copy the console to stdout
#   -a  append ARGS to the guest kernel's command line
#   -c  the guest's CPU count (default 1)
# The cache is $DTRACE_VM_CACHE (default <top>/build/vm), filled by
# fetch-kernel.sh (run here if needed). The guest reads the host's files but
# cannot write them; /run is a writable tmpfs (and $TMPDIR) in the guest.
# DTRACE_VM_ACCEL replaces -accel tcg,thread=single (e.g. tcg: MTTCG).
# COMMAND's environment: PATH, HOME=/root, TERM=dumb, LANG=C.UTF-8,
# TMPDIR=/run, DTRACE_VM=1, DTRACE_VM_ROOT=<cache>/root (the unpacked image:
# `modprobe -d "$DTRACE_VM_ROOT" NAME` loads its modules with dependencies).
#
# Exit status: the command's own status, or
#   240  harness error (no kernel, qemu missing or failed to start)
#   241  timeout (the guest did not boot or the command did not finish)
#   242  no result: the guest stopped without reporting the command's status
#   243  kernel problem: an oops, BUG, WARN, panic or soft lockup (kernel taint
#        or a "WARNING:", "BUG:", "Oops", "Kernel panic", "Call Trace:",
#        "general protection fault" kernel line in the log)
# The reason is printed on stderr as "vm: <class>: ...".
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tools/vm
export DTRACE_VM_CACHE=${DTRACE_VM_CACHE:-$top/build/vm${DTRACE_VM_KREL:+-$DTRACE_VM_KREL}}
cache=$DTRACE_VM_CACHE
timeout_s=${DTRACE_VM_TIMEOUT:-300}
log=
out=
quiet=0
append=
cpus=1
while getopts t:l:o:a:c:q opt; do
	case $opt in
	t) timeout_s=$OPTARG ;;
	l) log=$OPTARG ;;
	o) out=$OPTARG ;;
	q) quiet=1 ;;
	a) append+=" $OPTARG" ;;
	c) cpus=$OPTARG ;;
	*) exit 240 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: run.sh [-t SECONDS] [-l LOG] [-o OUT] [-a ARGS] [-c CPUS] [-q] [--] COMMAND [ARG...]" >&2; exit 240; }

fail() { # fail CODE CLASS MESSAGE
	echo "vm: $2: $3${log:+ (log: $log)}" >&2
	exit "$1"
}

case $cache in *[[:space:]]*) fail 240 "harness error" "the cache path '$cache' has a space: the kernel command line cannot carry it" ;; esac
command -v qemu-system-x86_64 >/dev/null || fail 240 "harness error" "qemu-system-x86_64 not found (tools/install-deps.sh)"
[ -x /bin/busybox ] || fail 240 "harness error" "/bin/busybox not found (busybox-static)"
command -v cpio >/dev/null || fail 240 "harness error" "cpio not found"
krel=$("$here/fetch-kernel.sh") || fail 240 "harness error" "fetch-kernel.sh failed"
root=$cache/root
vmlinuz=$root/boot/vmlinuz-$krel

# The initramfs: busybox, the modules that reach the 9p root, /init.
initrd=$cache/initramfs-$krel.cpio.gz
build_initrd() {
	local moddir=$root/lib/modules/$krel dir order=() seen=" "
	dir=$(mktemp -d "$cache/initramfs.XXXXXX")
	mkdir -p "$dir"/{bin,dev,proc,sys,mnt,modules}
	cp /bin/busybox "$dir/bin/busybox"
	cp "$here/init.sh" "$dir/init"
	chmod 755 "$dir/init"
	# Load order from modules.dep: dependencies first. Modules built into
	# the kernel (6.12's virtio_pci) are skipped; compressed ones (6.12:
	# .ko.xz) are unpacked, busybox's insmod takes plain ELF.
	add() {
		local m=$1 line d f
		case $seen in *" $m "*) return ;; esac
		seen+="$m "
		grep -q -E "(^|/)$m\.ko\$" "$moddir/modules.builtin" 2>/dev/null && return
		line=$(grep -E "(^|/)$m\.ko(\.xz|\.zst|\.gz)?:" "$moddir/modules.dep") || {
			echo "vm: module $m not in $krel" >&2
			return 1
		}
		for d in ${line#*:}; do
			d=$(basename "$d")
			add "${d%%.ko*}"
		done
		f=$moddir/${line%%:*}
		case $f in
		*.ko.xz) xz -dc "$f" >"$dir/modules/$m.ko" ;;
		*.ko.zst) zstd -qdc "$f" >"$dir/modules/$m.ko" ;;
		*.ko.gz) gzip -dc "$f" >"$dir/modules/$m.ko" ;;
		*) cp "$f" "$dir/modules/$m.ko" ;;
		esac
		order+=("$m.ko")
	}
	for m in virtio_pci 9pnet_virtio 9p overlay; do add "$m"; done
	printf '%s\n' "${order[@]}" >"$dir/modules.list"
	(cd "$dir" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd.tmp"
	rm -rf "$dir"
	mv "$initrd.tmp" "$initrd"
}
(
	flock 9
	if [ ! -s "$initrd" ] || [ "$here/init.sh" -nt "$initrd" ] || [ "$here/run.sh" -nt "$initrd" ]; then
		build_initrd
	fi
) 9>"$cache/.initrd.lock" || fail 240 "harness error" "could not build the initramfs"

# The command, as a script under the shared root (never under /tmp).
mkdir -p "$cache/logs" "$cache/runs"
rundir=$(mktemp -d "$cache/runs/run.XXXXXX")
trap 'rm -rf "$rundir"' EXIT
{
	# In the guest, modprobe -d "$DTRACE_VM_ROOT" NAME loads the image's modules.
	printf 'export DTRACE_VM=1 DTRACE_VM_ROOT=%q\n' "$root"
	printf 'cd %q 2>/dev/null || cd /\n' "$PWD"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$rundir/cmd.sh"
chmod -R a+rX "$rundir"
[ -n "$log" ] || log=$cache/logs/run-$(date -u +%Y%m%dT%H%M%S)-$$.log
mkdir -p "$(dirname "$log")"
: >"$log"

[ -z "$out" ] || append+=" dtvm_out=ttyS1"
# An emulated CPU on a busy host can look stuck: soft lockups and RCU stalls
# are reported after 60 s (default 20 s).
# no_timer_check: a loaded TCG host can fail the boot-time IO-APIC timer
# check ("IO-APIC + timer doesn't work!", a panic) for every VM test.
slow="watchdog_thresh=30 rcupdate.rcu_cpu_stall_timeout=60 no_timer_check"
qesc() { echo "${1//,/,,}"; } # a comma in a qemu option value is doubled
# /dev/kvm exists on these machines but hangs guests: TCG only. -cpu max
# gives the guest SMAP/SMEP/UMIP, as on real machines (4-level paging).
# shellcheck disable=SC2054 # the commas are in qemu option values
# Single-threaded TCG (one host thread for all vCPUs): under multi-threaded
# TCG the torture's sys_enter register/unregister loop soft-locked both
# vCPUs at the tracepoint's static-branch site (int3 text patching) within
# 600 s; single-threaded, 600 s ran clean, and the guest is faster here.
# DTRACE_VM_ACCEL overrides it (e.g. DTRACE_VM_ACCEL=tcg for MTTCG).
qemu=(nice -n 10 qemu-system-x86_64 -accel "${DTRACE_VM_ACCEL:-tcg,thread=single}" -cpu max,la57=off -m 1G -smp "$cpus" -nodefaults -nographic -no-reboot
	-fw_cfg name=etc/sercon-port,string=0
	-kernel "$vmlinuz" -initrd "$initrd"
	-append "console=ttyS0 edd=off panic=-1 loglevel=4 printk.time=1 $slow dtvm_cmd=$rundir/cmd.sh$append"
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
	-chardev "stdio,id=con,signal=off,logfile=$(qesc "$log")" -serial chardev:con)
if [ -n "$out" ]; then
	mkdir -p "$(dirname "$out")"
	: >"$out"
	qemu+=(-chardev "file,id=out,path=$(qesc "$out")" -serial chardev:out)
fi
start=$(date +%s%N)
set +e
if [ $quiet -eq 1 ]; then
	timeout -k 5 "$timeout_s" "${qemu[@]}" </dev/null >/dev/null 2>"$rundir/qemu.err"
else
	timeout -k 5 "$timeout_s" "${qemu[@]}" </dev/null 2>"$rundir/qemu.err"
fi
qrc=$?
set -e
ms=$((($(date +%s%N) - start) / 1000000))
secs=$((ms / 1000)).$(printf %03d $((ms % 1000)))
sed -i 's/\r$//' "$log"
# SeaBIOS's console is off (etc/sercon-port=0): its escape sequences would
# reset the terminal. QEMU warns about the name; that is expected.
sed -i '/etc\/sercon-port.*should be prefixed/d' "$rundir/qemu.err"
if [ -s "$rundir/qemu.err" ]; then
	sed 's/^/qemu: /' "$rundir/qemu.err" >>"$log"
fi

exitline=$(grep -a -o '@@DTVM-EXIT [0-9]* [0-9]*@@' "$log" | tail -n1 || true)
kernel_problem=$(grep -a -E '\[ *[0-9]+\.[0-9]+\] .*(WARNING:|BUG:|Oops|Kernel panic|Call Trace:|general protection fault|kernel BUG)' "$log" | head -n3 || true)

if [ -z "$exitline" ]; then
	if [ -n "$kernel_problem" ]; then
		fail 243 "kernel problem" "$(echo "$kernel_problem" | head -n1)"
	fi
	if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
		if grep -q '@@DTVM-BEGIN@@' "$log"; then
			fail 241 "timeout" "the command did not finish in ${timeout_s}s"
		fi
		fail 241 "timeout" "the guest did not boot in ${timeout_s}s"
	fi
	if [ $qrc -ne 0 ] && ! grep -q . "$log"; then
		fail 240 "harness error" "qemu failed (status $qrc): $(head -c 300 "$rundir/qemu.err")"
	fi
	init_failed=$(grep -a -o '@@DTVM-INIT-FAILED .*@@' "$log" | head -n1 || true)
	fail 242 "no result" "the guest stopped without reporting a status${init_failed:+: $init_failed}"
fi
read -r _ st taint <<<"${exitline%@@}"
if [ $((taint & 17056)) -ne 0 ]; then
	fail 243 "kernel problem" "kernel tainted ($taint)${kernel_problem:+: $(echo "$kernel_problem" | head -n1)}"
fi
if [ -n "$kernel_problem" ]; then
	fail 243 "kernel problem" "$(echo "$kernel_problem" | head -n1)"
fi
echo "vm: command exited $st after ${secs}s (kernel $krel)" >&2
exit "$st"
