#!/usr/bin/env bash
# Configure and build into ./build (or $BUILD_DIR). Extra arguments go to
# cmake's configure step, e.g. -DDTRACE_WERROR=ON.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
cmake -S "$top" -B "$build" -G Ninja "$@"
cmake --build "$build" -j "$(nproc)"
