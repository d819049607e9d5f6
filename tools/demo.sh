#!/usr/bin/env bash
# The README's first command: install what is needed, build, and show
# dtrace working on this machine. Run as root (the providers read tracefs,
# kallsyms and BTF, which need it).
#
# What it runs grows with the engines: today dtrace lists the live
# probes of this kernel and of this shell's process.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tools/install-deps.sh"
"$top/tools/build.sh" >/dev/null
dtrace="$top/build/bin/dtrace"

run() {
	echo "+ dtrace $*"
	"$dtrace" "$@"
	echo
}
run -l -n 'syscall::openat:'
run -lv -n 'fbt::vfs_read:entry'
run -l -n 'proc:::exec*'
run -l -p $$ -n 'pid$target::malloc:entry'
echo "+ dtrace -l | wc -l   (every probe of every provider on this machine)"
"$dtrace" -l | wc -l
