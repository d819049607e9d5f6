/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * maps.bpf.c - the maps the library refers to, by the DT_BPF_MAP_* names of
 * dt_bpf_abi.h. The translator's linker relocates every ld_imm64 of these
 * symbols to the runtime's map fds, so the sizes here only need to be
 * plausible (libbpf-loaded tests resize them). Two sizes ARE relied on:
 * dt_strtab and dt_globals values must be DT_BPF_STRTAB_SIZE and
 * DT_BPF_GLOBALS_MAX bytes (the library proves its variable-offset accesses
 * against those bounds), and dt_mem's value is struct dt_bpf_mem.
 */
#include "dt_lib_impl.h"

struct dt_lib_strtab {
	uint8_t b[DT_BPF_STRTAB_SIZE];
};
struct dt_lib_globals {
	uint8_t b[DT_BPF_GLOBALS_MAX];
};
struct dt_lib_dvar_key {
	struct dt_bpf_dvar_key hdr;
	uint8_t tuple[256];
};
struct dt_lib_value {
	uint8_t b[256];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, uint32_t);
	__type(value, struct dt_bpf_mem);
} dt_mem SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, uint32_t);
	__type(value, struct dt_bpf_status);
} dt_status SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, uint32_t);
	__type(value, struct dt_bpf_cpustate);
} dt_cpustate SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} dt_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1024);
	__type(key, uint32_t);
	__type(value, struct dt_bpf_probe);
} dt_probes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, uint32_t);
	__type(value, struct dt_lib_strtab);
} dt_strtab SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, uint32_t);
	__type(value, struct dt_lib_globals);
} dt_globals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct dt_bpf_dvar_key);
	__type(value, struct dt_lib_value);
} dt_tls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct dt_lib_dvar_key);
	__type(value, struct dt_lib_value);
} dt_dvars SEC(".maps");

/* Single-entry maps: their value, or NULL. */
DT_INLINE void *dt_map0(void *map)
{
	uint32_t k = 0;

	return bpf_map_lookup_elem(map, &k);
}

/* This CPU's drop counters, or NULL. */
DT_INLINE struct dt_bpf_cpustate *dt_cpu(void)
{
	return dt_map0(&dt_cpustate);
}
