/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * translate_linklib.bpf.c - a stand-in BPF library for the linker's test
 * (translate_link_test.cc): what link.cc must handle in a library object,
 * each once: a bpf_loop callback (BPF_PSEUDO_FUNC, so the program needs
 * BTF func_info), a call to a static function (R_BPF_64_32 against the
 * section), a call to a global one, and a map reference by name.
 *
 *   dt_subr_strlen(m, strsize, n) = 2 * (0 + 1 + ... + n-1) + dt_status.exit_cpu
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "../../../core/engine/bpf/abi/dt_bpf_abi.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, uint32_t);
	__type(value, struct dt_bpf_status);
} dt_status SEC(".maps");

static long add_index(uint64_t i, void *ctx)
{
	*(uint64_t *)ctx += i;
	return 0;
}

static __attribute__((noinline)) uint64_t twice(uint64_t x)
{
	return x * 2;
}

__attribute__((noinline)) uint64_t exit_cpu(void)
{
	uint32_t k = 0;
	struct dt_bpf_status *st = bpf_map_lookup_elem(&dt_status, &k);

	return st ? st->exit_cpu : 0;
}

__attribute__((noinline)) uint64_t dt_subr_strlen(struct dt_bpf_mem *m, uint64_t strsize,
						  uint64_t n, uint64_t b, uint64_t c)
{
	uint64_t sum = 0;

	(void)m;
	(void)strsize;
	(void)b;
	(void)c;
	bpf_loop(n & 1023, add_index, &sum, 0);
	return twice(sum) + exit_cpu();
}

__attribute__((noinline)) uint64_t dt_emit_fault(struct dt_bpf_mem *m)
{
	m->fault.code = 0;
	return 0;
}

/* Every clause emits its firing (codegen_action.cc): nothing to do here. */
__attribute__((noinline)) uint64_t dt_emit_firing(struct dt_bpf_mem *m, uint64_t size)
{
	(void)m;
	(void)size;
	return 0;
}

char _license[] SEC("license") = "Dual MIT/GPL";
