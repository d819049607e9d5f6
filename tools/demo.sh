#!/usr/bin/env bash
# The README's first command: install what is needed, build, and show
# dtrace working on this machine. Run as root (the providers read tracefs,
# kallsyms and BTF, which need it).
#
# It runs the issue's main one-liner (syscalls counted by process for two
# seconds, on the bpf engine when this kernel cannot load our modules),
# then lists some of the live probes of this kernel and of this shell.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tools/install-deps.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$top/tools/build.sh" >"$log" 2>&1; then
	cat "$log" >&2
	echo "demo: the build failed (output above)" >&2
	exit 1
fi
dtrace="$top/build/bin/dtrace"

run() {
	echo "+ dtrace $*"
	"$dtrace" "$@"
	echo
}
run -n 'syscall:::entry { @[execname] = count(); } tick-2s { exit(0); }'
run -l -n 'syscall::openat:'
run -lv -n 'fbt::vfs_read:entry'
run -l -n 'proc:::exec*'
run -l -p $$ -n 'pid$target::malloc:entry'
echo "+ dtrace -l | wc -l   (every probe of every provider on this machine)"
"$dtrace" -l | wc -l
