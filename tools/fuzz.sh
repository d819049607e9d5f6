#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the libFuzzer targets with clang in build-fuzz and run each for a
# bounded time, seeded from the tests/dif vectors.
#
#   tools/fuzz.sh [SECONDS]      default 60 per fuzzer (FUZZ_TIME also works)
#
# Needs clang and libFuzzer (Debian: clang, libclang-rt-14-dev; see
# tools/install-deps.sh). Without them it says so and exits 0, so that
# tools/test.sh can always call it. A crash leaves its reproducer in
# build-fuzz/fuzz-out/<fuzzer>/ and fails the script.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
secs=${1:-${FUZZ_TIME:-60}}
jobs=${FUZZ_JOBS:-2}

if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
	echo "fuzz: clang not installed: skipped"
	exit 0
fi

san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S "$root" -B "$build" -G Ninja \
	-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
	-DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
	-DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
	-DDTRACE_BUILD_BENCH=OFF >"$build.configure.log" 2>&1 || {
	echo "FAIL: fuzz: cmake configure failed, see $build.configure.log" >&2
	exit 1
}
if ! grep -q "^DTRACE_HAVE_LIBFUZZER:INTERNAL=1" "$build/CMakeCache.txt"; then
	echo "fuzz: libFuzzer not available (Debian: libclang-rt-14-dev): skipped"
	exit 0
fi

targets=(dif_fuzz dif_corpus)
[ -f "$root/tests/fuzz/parse_fuzz.cc" ] && targets+=(parse_fuzz)
nice ninja -C "$build" -j"$jobs" "${targets[@]}" || {
	echo "FAIL: fuzz: building ${targets[*]} failed" >&2
	exit 1
}

out="$build/fuzz-out"
mkdir -p "$out"
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT

# Seeds: the DIF vectors; for the parser, the example and golden D scripts.
mkdir -p "$corpus/dif" "$corpus/parse"
"$build/tests/fuzz/dif_corpus" "$corpus/dif"
find "$root/examples" "$root/tests" -name '*.d' -size -16k -exec cp {} "$corpus/parse/" \; 2>/dev/null || true

status=0
run() {
	local name=$1 seeds=$2
	local bin="$build/tests/fuzz/$name"
	mkdir -p "$out/$name"
	echo "fuzz: $name for ${secs}s"
	if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$out/$name." -print_final_stats=1 \
		"$out/$name" "$seeds" >"$out/$name.log" 2>&1; then
		echo "FAIL: fuzz: $name found a crash; see $out/$name.log and $out/$name.crash-*" >&2
		status=1
	fi
	tail -n 3 "$out/$name.log" | sed 's/^/  /'
}
run dif_fuzz "$corpus/dif"
if [ -x "$build/tests/fuzz/parse_fuzz" ]; then
	run parse_fuzz "$corpus/parse"
fi
exit $status
