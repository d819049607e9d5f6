#!/usr/bin/env bash
# The conformance suite's VM tier: Oracle's dtrace-utils tests that need what
# this machine's kernel lacks -- kernel data symbols in kallsyms (the host has
# no CONFIG_KALLSYMS_ALL: no `max_pfn, `jiffies, `init_task) and fbt (no
# kprobes) -- run inside the QEMU guest (Debian's stock 6.1 kernel, which has
# both), with the suite's own runner (../shared/conformance/oracle_suite.py,
# run as it is from the shared host root) against this tree's bin/dtrace.
#
# Usage: tools/vm/conformance.sh [-o OUT.json] [-d DTRACE] [-e ENGINE]
#            [-t SECS] [-f HOST.json] [-c CPUS] [-n CHUNK] [TEST|CATEGORY...]
#   TEST|CATEGORY  what the runner takes (aggs, stack/tst.stack.d, "err.D_*");
#           default: every test `tools/conformance.py --vm-tests` lists (the
#           runner's scan: fbt probes, or kernel data in a D program)
#   -f      with the default list: only the tests that did not pass in this
#           host run (a JSON of oracle_suite.py --json)
#   -o      the JSON written on the host (default build/vm-conformance.json),
#           the runner's format; tools/conformance.py --vm-json reads it
#   -d      the dtrace binary (default build/bin/dtrace)
#   -e      auto (default: dtrace's own choice, the bpf engine for kernel
#           probes and kernel reads, dtrace.ko being absent), bpf, or kmod
#           (dtrace.ko and the provider modules are built for the guest's
#           kernel first, kmod/build-modules.sh; every run takes
#           -x engine=kmod)
#   -t      the runner's per-test timeout (default 120 s: TCG is slow)
#   -c      guest CPUs (default 1)
#   -n      tests per runner invocation (default 30): each chunk's results
#           leave the guest as soon as it ends, so a guest that runs out of
#           time loses only the chunk it was in
# The runner runs with -j 1. Its failures are printed at the end, with the
# console log's path. The guest's time limit is 600 s plus a third of SECS
# per test (most take 5-15 s under TCG); DTRACE_VM_TIMEOUT replaces it.
# Exit: 0 the JSON was written (whatever the tests' outcomes), else run.sh's
# status (240 harness error, 241 timeout, 243 kernel problem...) or 1.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
suite=$(dirname "$top")/shared/conformance
out=$top/build/vm-conformance.json
dtrace=$top/build/bin/dtrace
engine=auto
per_test=120
host_json=
cpus=1
chunk=30
while getopts o:d:e:t:f:c:n: opt; do
	case $opt in
	o) out=$OPTARG ;;
	d) dtrace=$OPTARG ;;
	e) engine=$OPTARG ;;
	t) per_test=$OPTARG ;;
	f) host_json=$OPTARG ;;
	c) cpus=$OPTARG ;;
	n) chunk=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
die() { echo "conformance.sh: $*" >&2; exit 1; }
case $engine in auto | bpf | kmod) ;; *) die "-e: auto, bpf or kmod, not '$engine'" ;; esac
[ -f "$suite/oracle_suite.py" ] || die "no runner at $suite/oracle_suite.py"
[ -x "$dtrace" ] || die "no dtrace binary at $dtrace (build it first)"
dtrace=$(realpath "$dtrace")
out=$(realpath -m "$out")

work=$top/build/vm-conformance
rm -rf "$work"
mkdir -p "$work"
if [ $# -gt 0 ]; then
	printf '%s\n' "$@" >"$work/tests"
else
	python3 "$top/tools/conformance.py" --vm-tests ${host_json:+--failed-in "$host_json"} \
		>"$work/tests" || die "tools/conformance.py --vm-tests failed"
fi
n=$(grep -c . "$work/tests")
[ "$n" -gt 0 ] || die "no tests to run"
echo "conformance.sh: $n tests (or categories) in the guest, engine $engine, -t $per_test" >&2

# The dtrace the runner runs: the binary itself, or a wrapper that adds
# -x engine=E (the runner's .sh tests run it as "$dtrace" too).
runner_dtrace=$dtrace
guest_env=
if [ "$engine" != auto ]; then
	runner_dtrace=$work/dtrace
	printf '#!/bin/sh\nexec %q -x engine=%s "$@"\n' "$dtrace" "$engine" >"$runner_dtrace"
	chmod 755 "$runner_dtrace"
fi
if [ "$engine" = kmod ]; then
	krel=$("$top/tools/vm/fetch-kernel.sh") || die "could not fetch the guest's kernel"
	cache=${DTRACE_VM_CACHE:-$top/build/vm${DTRACE_VM_KREL:+-$DTRACE_VM_KREL}}
	MAKEFLAGS=-j2 nice "$top/kmod/build-modules.sh" "$cache/root/usr/src/linux-headers-$krel" \
		"$work/modules" "$work/kbuild" >"$work/modules.log" 2>&1 ||
		{ tail -30 "$work/modules.log"; die "building the modules for $krel failed"; }
	guest_env="export DTRACE_KMOD_DIR=$work/modules/$krel"
fi

# The guest's script: the runner once per chunk of tests, each chunk's JSON
# one line of stdout (the second serial port: nothing else is mixed in);
# the runner's own output (-v: a line per test) goes to the console. The
# suite is extracted once (--keep): over 9p that takes a minute.
split -l "$chunk" -d "$work/tests" "$work/chunk."
# The tests' triggers write under /tmp (readwholedir's test file): the
# guest's own tmpfs there, over the host's read-only /tmp, which nothing
# here needs.
cat >"$work/guest.sh" <<GUEST
$guest_env
mount -t tmpfs tmpfs /tmp || echo "guest: no tmpfs on /tmp" >&2
cd /run
for c in $work/chunk.*; do
	mapfile -t sel <"\$c"
	python3 -u $suite/oracle_suite.py --dtrace $runner_dtrace -j 1 --timeout $per_test \\
		--keep /run/suite -v --json /run/chunk.json "\${sel[@]}" >&2
	python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))))' /run/chunk.json ||
		echo "guest: chunk \$c wrote no JSON" >&2
	rm -rf /run/chunk.json /run/suite/run # its tests' directories, t1 ... tN, again in the next chunk
done
GUEST
limit=$((600 + n * per_test / 3))
[ -z "${DTRACE_VM_TIMEOUT:-}" ] || limit=$DTRACE_VM_TIMEOUT
start=$SECONDS
"$top/tools/vm/run.sh" -q -c "$cpus" -t "$limit" -l "$work/console.log" -o "$work/chunks.jsonl" \
	bash "$work/guest.sh"
rc=$?
echo "conformance.sh: the guest ran $((SECONDS - start)) s (limit $limit s), run.sh exited $rc;" \
	"console log: $work/console.log" >&2

# One JSON of every chunk's results, in the runner's format.
python3 - "$work/chunks.jsonl" "$out" "$engine" <<'PY' || exit $((rc ? rc : 1))
import json, sys
chunks = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
if not chunks:
    sys.exit('conformance.sh: no results came out of the guest')
results = [r for c in chunks for r in c['results']]
meta = dict(chunks[0]['meta'])
meta['engine'] = sys.argv[3]
meta['tier'] = 'vm'
meta['totals'] = {k: sum(r['outcome'] == k for r in results) for k in ('pass', 'fail', 'skip')}
json.dump({'meta': meta, 'results': results}, open(sys.argv[2], 'w'), indent=1)
t = meta['totals']
print(f"conformance.sh: {len(results)} tests on {meta['kernel']}: {t['pass']} pass, "
      f"{t['fail']} fail, {t['skip']} skip -> {sys.argv[2]}", file=sys.stderr)
PY
grep -a -E '^(FAIL|XFAIL) ' "$work/console.log" >&2
exit "$rc"
