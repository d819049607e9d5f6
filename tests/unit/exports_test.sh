#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# exports_test.sh LIBDTRACE_SO - libdtrace.so exports its public API
# (core/include/dtrace/*.hpp, dtrace/api.hpp) and nothing of its layers'
# internals: no symbol of the internal namespaces, of the compiler but its
# public entry points, and the public ones are there.
set -euo pipefail

lib=${1:?usage: exports_test.sh LIBDTRACE_SO}
[[ -f $lib ]] || { echo "FAIL: no $lib"; exit 1; }
syms=$(nm -DC --defined-only "$lib" | sed -E 's/^[0-9a-f]* +[A-Za-z] +//')
status=0

internal=$(grep -E '(^|[^:[:alnum:]_])dt::(bytes|consumer_impl|detail|engines|fmt|kmod)::' <<<"$syms" || true)
if [[ -n $internal ]]; then
	echo "FAIL: libdtrace.so exports internals:"
	head -20 <<<"$internal"
	status=1
fi
compiler=$(grep -E '(^|[^:[:alnum:]_])dt::compiler::' <<<"$syms" |
	grep -vE 'dt::compiler::(compile\(|disassemble[[(]|provider_header\(|provider_definition|probe_definition|usdt_note_name|usdt_semaphore|compile_error|diagnostic|input|settings)' || true)
if [[ -n $compiler ]]; then
	echo "FAIL: libdtrace.so exports compiler internals:"
	head -20 <<<"$compiler"
	status=1
fi
for want in 'dt::session::session(' 'dt::session::work(' 'dt::compiler::compile(' \
	'dt::consumer::consumer(' 'dt::provider_registry::match(' 'dt::match_program(' \
	'typeinfo for dt::error' 'typeinfo for dt::engine_error' 'dt::resolve_options('; do
	if ! grep -qF "$want" <<<"$syms"; then
		echo "FAIL: libdtrace.so does not export $want"
		status=1
	fi
done
echo "libdtrace.so exports $(grep -c 'dt::' <<<"$syms") dt:: symbols"
exit $status
