#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# layering_test.sh SRC - the layers include only downward (issue #10):
#   core/compiler   no consumer or engine header (their directories, or
#                   dtrace/consumer.hpp, dtrace/engine.hpp)
#   core/program    the program model: none of those, nor the compiler's
#                   internals (dtrace/compiler.hpp declares disassemble())
set -euo pipefail

src=${1:?usage: layering_test.sh SOURCE_DIR}
status=0

# check DIR REGEX WHAT: no #include line under DIR matches REGEX.
check() {
	local dir=$1 re=$2 what=$3 hits
	if [[ ! -d $src/$dir ]]; then
		echo "FAIL: $src/$dir is not a directory"
		status=1
		return
	fi
	hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]($re)" "$src/$dir" || true)
	if [[ -n $hits ]]; then
		echo "FAIL: $dir includes $what:"
		echo "$hits"
		status=1
	fi
}

engine_or_consumer='([^">]*/)?(consumer|engine)/|dtrace/(consumer|engine)\.hpp'
check core/compiler "$engine_or_consumer" "a consumer or engine header"
check core/program "$engine_or_consumer|([^\">]*/)?compiler/" \
	"a consumer, engine or compiler-internal header"
exit $status
