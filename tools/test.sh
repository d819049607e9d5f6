#!/usr/bin/env bash
# The README's second command: install what is needed, build with
# warnings as errors, and run every test tier (ctest labels unit, cli,
# host, sdk; vm joins when the kernel engine lands). Run as root: the
# host tier reads this machine's kernel.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/install-deps.sh"
BUILD_DIR=$build "$top/tools/build.sh" -DDTRACE_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
ctest --test-dir "$build" --output-on-failure --timeout 600 -j "$(nproc)" "$@"
