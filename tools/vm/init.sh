#!/bin/busybox sh
# shellcheck shell=dash disable=SC2013
# /init of the VM tier's initramfs (built by tools/vm/run.sh; busybox-static).
# Loads the modules listed in /modules.list (in order), mounts the host's root
# (9p tag "hostroot", read-only) on /mnt, gives it proc, sys, dev, tracefs,
# debugfs and a writable /run, then runs, chrooted into /mnt,
#   /bin/bash <dtvm_cmd>        (dtvm_cmd= from the kernel command line)
# with stdout on the console, or on /dev/ttyS1 if dtvm_out=ttyS1, stderr on the
# console,
# and prints on the console
#   @@DTVM-BEGIN@@                              before the command
#   @@DTVM-EXIT <status> <taint>@@              after it
# then powers off. The host's /tmp stays visible (read-only, never hidden by a
# tmpfs). On a kernel taint of WARN/oops/bad page/soft lockup, the whole
# kernel log is printed between @@DTVM-DMESG@@ and @@DTVM-DMESG-END@@ first.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

die() {
	echo "@@DTVM-INIT-FAILED $*@@"
	poweroff -f
}

for m in $(cat /modules.list); do
	insmod "/modules/$m" || die "insmod $m"
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /mnt ||
	die "mount hostroot"
mount -t proc proc /mnt/proc || die "mount proc"
mount -t sysfs sysfs /mnt/sys || die "mount sys"
mount -t devtmpfs devtmpfs /mnt/dev || die "mount dev"
mkdir -p /mnt/dev/pts /mnt/dev/shm
mount -t devpts devpts /mnt/dev/pts
mount -t tmpfs tmpfs /mnt/dev/shm
mount -t tracefs tracefs /mnt/sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /mnt/sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /mnt/run || die "mount run"

cmd=
out=/dev/console
for a in $(cat /proc/cmdline); do
	case $a in
	dtvm_cmd=*) cmd=${a#dtvm_cmd=} ;;
	dtvm_out=ttyS1) out=/dev/ttyS1 ;;
	esac
done
[ -n "$cmd" ] || die "no dtvm_cmd= on the kernel command line"
# dtvm_out=ttyS1: the command's stdout goes, byte for byte, to the second
# serial port, which the host writes to a file.
if [ $out = /dev/ttyS1 ]; then
	stty -F /dev/ttyS1 raw -echo || die "stty ttyS1"
fi

# Show every kernel message on the console while the command runs.
echo 8 >/proc/sys/kernel/printk
echo "@@DTVM-BEGIN@@"
chroot /mnt /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root TERM=dumb LANG=C.UTF-8 TMPDIR=/run /bin/bash "$cmd" </dev/null >$out
st=$?
taint=$(cat /proc/sys/kernel/tainted)
# B (5) bad page, D (7) oops, W (9) warning, L (14) soft lockup.
if [ $((taint & 17056)) -ne 0 ]; then
	echo "@@DTVM-DMESG@@"
	dmesg
	echo "@@DTVM-DMESG-END@@"
fi
echo "@@DTVM-EXIT $st $taint@@"
poweroff -f
