/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * dt_lib.bpf.c - the BPF library as one translation unit (one object, one
 * .text): every part, in dependency order. Built by CMakeLists.txt with
 * clang -target bpf; tests/engine/bpf/lib includes it the same way.
 */
#include "dt_lib_impl.h"

#include "maps.bpf.c"
#include "mem.bpf.c"
#include "strings.bpf.c"
#include "agg.bpf.c"
#include "emit.bpf.c"
#include "builtins.bpf.c"
#include "dvars.bpf.c"
#include "subr_str.bpf.c"
#include "subr_tok.bpf.c"
#include "subr_net.bpf.c"
#include "subr_misc.bpf.c"
#include "subr_lock.bpf.c"
#include "subr_dpath.bpf.c"
#include "spec.bpf.c"

char _license[] SEC("license") = "Dual MIT/GPL";
