#!/usr/bin/env bash
# The README's second command: install what is needed, build with
# warnings as errors, run every test tier (ctest labels unit, cli, golden,
# host, sdk, vm: docs/architecture.md §7), then the fuzzers for a bounded time
# (tools/fuzz.sh; FUZZ_TIME seconds each, default 60). Run as root: the
# host tier reads this machine's kernel, the vm tier boots it in QEMU.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/install-deps.sh"
BUILD_DIR=$build "$top/tools/build.sh" -DDTRACE_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
ctest --test-dir "$build" --output-on-failure --timeout 600 -j "$(nproc)" "$@"
FUZZ_BUILD_DIR=${FUZZ_BUILD_DIR:-$build-fuzz} "$top/tools/fuzz.sh" "${FUZZ_TIME:-60}"
