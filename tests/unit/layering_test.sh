#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# layering_test.sh SRC - libdtrace's layers include only downward
# (docs/architecture.md §3; core/CMakeLists.txt links them the same way):
#
#   session    core/session            anything below
#   consumer   core/consumer           engine's interface (dtrace/engine.hpp), program,
#                                      providers, dif, util
#   engine     core/engine             program, providers, dif, util
#   compiler   core/compiler           program, providers, dif, util
#   program    core/program            providers, util (dtrace/compiler.hpp only for
#                                      disassemble())
#   providers  core/probe core/plugin  util
#   util       core/util               nothing
#   dif        core/dif                the uapi headers only (freestanding C, in dtrace.ko)
#   cmd        cmd/                    the public headers only
#
# A layer's internal headers are named from core/ ("program/disasm.hpp") or
# relatively ("../../program/printf_format.hpp"); the public ones as
# <dtrace/NAME.hpp>. Each rule lists what a layer must not include.
set -euo pipefail

src=${1:?usage: layering_test.sh SOURCE_DIR}
status=0

# check DIR REGEX WHAT: no #include line under DIR names a header matching REGEX.
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

# Internal headers of the layers DIRS, and the public headers PUBS.
internal() { echo "([^\">]*/)?($1)/"; }
public() { echo "dtrace/($1)\\.hpp"; }

check core/util "$(internal 'compiler|consumer|engine|session|program|plugin|probe|dif')|$(public 'compiler|consumer|engine|session|program|options|provider|probe_desc|attributes')" \
	"a header of another layer"
for d in core/probe core/plugin; do
	check $d "$(internal 'compiler|consumer|engine|session|program')|$(public 'compiler|consumer|engine|session|program|options')" \
		"a program, compiler, engine, consumer or session header"
done
check core/program "$(internal 'compiler|consumer|engine|session')|$(public 'consumer|engine|session')" \
	"a compiler-internal, engine, consumer or session header"
check core/compiler "$(internal 'consumer|engine|session')|$(public 'consumer|engine|session')" \
	"an engine, consumer or session header"
check core/engine "$(internal 'compiler|consumer|session')|$(public 'compiler|consumer|session')" \
	"a compiler, consumer or session header"
check core/consumer "$(internal 'compiler|engine|session')|$(public 'compiler|session')" \
	"a compiler, engine-internal or session header"
check core/dif "dtrace/|$(internal 'compiler|consumer|engine|session|program|plugin|probe|util')" \
	"a C++ header (the VM is freestanding C)"
check cmd "\\.\\./|$(internal 'core|compiler|consumer|engine|session|program|plugin|probe|util|dif')" \
	"an internal header of libdtrace"
exit $status
