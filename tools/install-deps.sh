#!/usr/bin/env bash
# Install the Debian 12 packages that building and testing dtrace need.
# Idempotent: asks apt only for what is missing (and runs `apt-get update`
# only then). Run as root.
set -euo pipefail

packages=(
	# build
	cmake ninja-build g++ pkg-config
	# libraries (docs/architecture.md §6)
	libpoco-dev libelf-dev libdw-dev libbpf-dev libcapstone-dev
	# tests and benchmarks (jq reads -x oformat=json output: tests/cli/json_host_test.cc)
	googletest libgtest-dev libbenchmark-dev binutils jq
	# libc's split debug info: ustack() names its internal functions
	# (tests/consumer/ustack_dwarf_host_test.cc, docs/ustack.md)
	libc6-dbg
	# the kernel side: BPF objects are built with clang
	clang
	# fuzzing (tools/fuzz.sh): libFuzzer and the sanitizer runtimes of clang-14
	libclang-rt-14-dev
	# -x metrics' tests: curl, and Debian's Prometheus scraping a running dtrace
	curl prometheus
	# the Debian packages' tests (cpack -G DEB, dpkg --root, man -l, dkms)
	dpkg-dev file man-db dkms
	# the VM tier (tools/vm): QEMU, the initramfs, depmod/modinfo, and kbuild
	# for Debian's 6.1 kernel (built with gcc-12; its tools need libssl3)
	qemu-system-x86 busybox-static cpio kmod make gcc-12 libssl3
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all ${#packages[@]} packages present"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}; run as root to install them" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
