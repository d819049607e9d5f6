#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -x metrics with Debian's Prometheus (host tier: root, the bpf engine):
# Prometheus scrapes a running dtrace on loopback and its HTTP API
# (/api/v1/query) returns the series with dtrace's values.
#
#   dtrace -x metrics=127.0.0.1:0   syscall counts of a workload by execname
#                                   and by call, a quantize of its write sizes
#   workload                        dd (copied as "dtmload") writing 7 x 100
#                                   bytes, three times: 21 writes, all in the
#                                   64..127 bucket
#   prometheus                      scrape_interval 1s, its own loopback port
#   checks                          up == 1; the counters, the histogram's
#                                   buckets, _sum and _count; a PromQL
#                                   histogram_quantile(); the per-execname
#                                   count equal to what dtrace prints at exit
#
# Usage: metrics_prometheus_test.sh <dtrace>
set -euo pipefail
dtrace=${1:?usage: metrics_prometheus_test.sh <dtrace>}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (the bpf engine)"; exit 77; }
prom=$(command -v prometheus || true)
[ -n "$prom" ] || { echo "SKIP: prometheus is not installed and could not be (tools/install-deps.sh installs Debian's)"; exit 77; }
for t in curl python3; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-prometheus.XXXXXX")
dpid=
ppid_=
cleanup() {
	[ -n "$dpid" ] && kill -KILL "$dpid" 2>/dev/null
	[ -n "$ppid_" ] && kill -TERM "$ppid_" 2>/dev/null && wait "$ppid_" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*" >&2
	for f in "$tmp"/*.err "$tmp"/prometheus.log; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -n 30 "$f" >&2; }
	done
	exit 1
}
. "$(dirname "$0")/lib.sh"

echo "== dtrace"
cp "$(command -v dd)" "$tmp/dtmload"
"$dtrace" -x metrics=127.0.0.1:0 -n '
syscall:::entry /execname == "dtmload"/ { @sys[execname] = count(); @calls[probefunc] = count(); }
syscall::write:entry /execname == "dtmload"/ { @wsize = quantize(arg2); }' \
	>"$tmp/dtrace.out" 2>"$tmp/dtrace.err" &
dpid=$!
dport=$(metrics_port "$tmp/dtrace.err" "$dpid")
# Tracing has begun once the first scrape is answered.
curl -sS "http://127.0.0.1:$dport/metrics" >/dev/null || fail "dtrace does not answer"

echo "== workload"
for _ in 1 2 3; do
	"$tmp/dtmload" if=/dev/zero of=/dev/null bs=100 count=7 status=none
done

echo "== prometheus"
pport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$tmp/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: dtrace
    static_configs:
      - targets: ['127.0.0.1:$dport']
YAML
"$prom" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prometheus.log" 2>&1 &
ppid_=$!
api=http://127.0.0.1:$pport/api/v1/query
# query EXPR: the value of the one series it returns ("" if none yet).
query() {
	curl -sS --get --data-urlencode "query=$1" "$api" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "success", r
v = r["data"]["result"]
print(v[0]["value"][1] if len(v) == 1 else "")' 2>/dev/null || true
}
want() { # EXPR VALUE: wait up to 30 s for EXPR to be VALUE
	local got=
	for _ in $(seq 60); do
		got=$(query "$1")
		[ "$got" = "$2" ] && { echo "  $1 = $got"; return 0; }
		kill -0 "$ppid_" 2>/dev/null || fail "prometheus exited"
		sleep 0.5
	done
	fail "$1: '$got', wanted '$2'"
}
want 'up{job="dtrace"}' 1
want 'dtrace_calls_total{key0="write"}' 21
want 'dtrace_wsize_bucket{le="31"}' ""
want 'dtrace_wsize_bucket{le="63"}' 0
want 'dtrace_wsize_bucket{le="127"}' 21
want 'dtrace_wsize_bucket{le="+Inf"}' 21
want 'dtrace_wsize_count' 21
want 'dtrace_wsize_sum' 1344
q=$(query 'histogram_quantile(0.5, dtrace_wsize_bucket)')
python3 -c "import sys; v = float('$q'); sys.exit(0 if 64 <= v <= 127 else 1)" ||
	fail "histogram_quantile(0.5) = '$q', not within 64..127"
echo "  histogram_quantile(0.5, dtrace_wsize_bucket) = $q"
n=$(query 'dtrace_sys_total{key0="dtmload"}')
[ -n "$n" ] || fail "no dtrace_sys_total{key0=\"dtmload\"}"
meta=$(curl -sS "http://127.0.0.1:$pport/api/v1/metadata?metric=dtrace_wsize")
grep -q '"type":"histogram"' <<<"$meta" || fail "dtrace_wsize metadata: $meta"

echo "== dtrace's own output agrees"
interrupt "$dpid"
dpid=
printed=$(awk '$1 == "dtmload" { print $2 }' "$tmp/dtrace.out")
[ "$printed" = "$n" ] || { cat "$tmp/dtrace.out" >&2; fail "dtrace printed @sys[dtmload] = '$printed', Prometheus has '$n'"; }
echo "PASS: Prometheus scraped dtrace's aggregations (dtmload: $n system calls)"
