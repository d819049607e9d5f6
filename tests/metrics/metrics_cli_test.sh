#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -x metrics on the command line (docs/metrics.md), on the user engine (no
# privileges): a running dtrace serves its aggregations at /metrics.
#
#   1. bad values are refused with DTrace's message, exit 1
#   2. -x metrics=127.0.0.1:0: dtrace says the port; the BEGIN aggregations
#      scrape as exact text (counters with key labels, a gauge, a quantize
#      histogram); a tick-driven count grows between two scrapes
#   3. OpenMetrics when asked (Accept), 404 elsewhere
#   4. a second dtrace on the same port fails with a message, exit 1
#   5. ^C ends tracing as usual (exit 0, the aggregations printed) and the
#      port is closed
#
# Usage: metrics_cli_test.sh <dtrace>
set -euo pipefail
dtrace=${1:?usage: metrics_cli_test.sh <dtrace>}
command -v curl >/dev/null || { echo "SKIP: curl is not installed (tools/install-deps.sh)"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-metrics-cli.XXXXXX")
pid=
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*" >&2
	for f in "$tmp"/*.err; do [ -f "$f" ] && { echo "--- $f" >&2; cat "$f" >&2; }; done
	exit 1
}
. "$(dirname "$0")/lib.sh"

echo "== bad values"
for bad in nope 127.0.0.1 127.0.0.1:99999 '::1:80' ''; do
	rc=0
	"$dtrace" -x "metrics=$bad" -n 'BEGIN { exit(0); }' >"$tmp/bad.out" 2>"$tmp/bad.txt" || rc=$?
	[ "$rc" = 1 ] || fail "-x metrics=$bad: exit $rc, not 1"
	want='dtrace: failed to set -x metrics: Invalid value for specified option (ADDRESS:PORT, e.g. 127.0.0.1:9464)'
	[ "$(cat "$tmp/bad.txt")" = "$want" ] || fail "-x metrics=$bad: $(cat "$tmp/bad.txt")"
done

echo "== serve"
"$dtrace" -x metrics=127.0.0.1:0 -x switchrate=50ms -n '
BEGIN {
	@calls["bash"] = count(); @calls["sh"] = count(); @calls["sh"] = count();
	@lat = quantize(3); @lat = quantize(100); @lat = quantize(100);
	@mean["a \"quoted\" key"] = avg(3); @mean["a \"quoted\" key"] = avg(4);
}
tick-20ms { @ticks = count(); }
tick-60s { exit(0); }' >"$tmp/dtrace.out" 2>"$tmp/dtrace.err" &
pid=$!
port=$(metrics_port "$tmp/dtrace.err" "$pid")
url=http://127.0.0.1:$port/metrics
curl -sS -D "$tmp/headers" "$url" >"$tmp/m1" || fail "curl $url"
grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$tmp/headers" ||
	fail "content type: $(cat "$tmp/headers")"
expect() { # FILE LINE...
	local f=$1
	shift
	for l in "$@"; do
		grep -qxF -- "$l" "$f" || { cat "$f" >&2; fail "no line '$l' in $f"; }
	done
}
expect "$tmp/m1" \
	'# HELP dtrace_calls_total DTrace aggregation @calls = count() by key0..key0' \
	'# TYPE dtrace_calls_total counter' \
	'dtrace_calls_total{key0="bash"} 1' \
	'dtrace_calls_total{key0="sh"} 2' \
	'# TYPE dtrace_lat histogram' \
	'dtrace_lat_bucket{le="1"} 0' \
	'dtrace_lat_bucket{le="3"} 1' \
	'dtrace_lat_bucket{le="7"} 1' \
	'dtrace_lat_bucket{le="63"} 1' \
	'dtrace_lat_bucket{le="127"} 3' \
	'dtrace_lat_bucket{le="+Inf"} 3' \
	'dtrace_lat_sum 130' \
	'dtrace_lat_count 3' \
	'# TYPE dtrace_mean gauge' \
	'dtrace_mean{key0="a \"quoted\" key"} 3.5' \
	'# TYPE dtrace_ticks_total counter'
t1=$(sed -n 's/^dtrace_ticks_total \([0-9]*\)$/\1/p' "$tmp/m1")
sleep 0.5
curl -sS "$url" >"$tmp/m2" || fail "second scrape"
t2=$(sed -n 's/^dtrace_ticks_total \([0-9]*\)$/\1/p' "$tmp/m2")
[ -n "$t2" ] && [ "${t2:-0}" -gt "${t1:-0}" ] || fail "ticks did not grow: '$t1' then '$t2'"

echo "== OpenMetrics, 404"
curl -sS -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;q=0.5' \
	-D "$tmp/headers" "$url" >"$tmp/om" || fail "OpenMetrics scrape"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$tmp/headers" ||
	fail "OpenMetrics content type: $(cat "$tmp/headers")"
expect "$tmp/om" '# TYPE dtrace_calls counter' 'dtrace_calls_total{key0="sh"} 2'
[ "$(tail -n 1 "$tmp/om")" = '# EOF' ] || fail "OpenMetrics text does not end with # EOF"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")
[ "$code" = 404 ] || fail "GET / answered $code"

echo "== the same port twice"
rc=0
"$dtrace" -x "metrics=127.0.0.1:$port" -n 'BEGIN { exit(0); }' >/dev/null 2>"$tmp/twice.txt" || rc=$?
[ "$rc" = 1 ] || fail "a second dtrace on port $port: exit $rc"
grep -q "^dtrace: cannot serve metrics at 127.0.0.1:$port: " "$tmp/twice.txt" ||
	fail "second dtrace: $(cat "$tmp/twice.txt")"

echo "== ^C"
interrupt "$pid"
pid=
grep -q '^  sh  *2$' "$tmp/dtrace.out" || { cat "$tmp/dtrace.out" >&2; fail "no @calls printed at exit"; }
if curl -s -o /dev/null "$url"; then
	fail "$url still answers after dtrace exited"
fi
echo "PASS: dtrace serves its aggregations at /metrics"
