/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * dvars.bpf.c - thread-locals (dt_tls) and associative arrays (dt_dvars):
 * the tuple staged in m->key after the dt_bpf_dvar_key header, loads (0
 * when missing; by-ref values copied to scratch), stores (0 deletes; a full
 * map counts a dynamic drop). Semantics: dif_emulate.c dvar_op.
 *
 * Values are staged in the scratch temporary DT_TMP_A: a map value_size up
 * to 4096 verifies for a struct (DT_VAL_MAX, what dt_wb_flush writes
 * back), up to DT_TMP_SIZE for a string (strsize, DT_BPF_STRSIZE_MAX).
 */
#include "dt_lib_impl.h"

#define DT_KEYHDR ((u64)sizeof(struct dt_bpf_dvar_key))
#define DT_VAL_MAX 4096
/* The largest by-ref value: a string's, or a struct's. */
#define DT_VAL_LIMIT(byref) ((byref) & DT_LIB_BYREF_STR ? DT_TMP_SIZE : DT_VAL_MAX)

DT_API u64 dt_tuple_reset(struct dt_bpf_mem *m, u64 keysize)
{
	m->tuple_used = 0;
	m->tuple_n = 0;
	/* Only the dt_dvars key's bytes matter (the rest is never looked at). */
	if (keysize == 0 || keysize > DT_BPF_KEY_SIZE)
		keysize = DT_BPF_KEY_SIZE;
	dt_xfer((uint8_t *)m, DT_OFF(key), DT_MEM_SIZE, 0, keysize, DT_X_ZERO);
	return 0;
}

DT_API u64 dt_tuple_push(struct dt_bpf_mem *m, u64 val, u64 is_string, u64 strsize)
{
	u64 off = DT_KEYHDR + m->tuple_used, n = is_string ? dt_strsize(strsize) : 8;

	if (m->tuple_n >= DIF_DTR_NREGS || off > DT_BPF_KEY_SIZE || n > DT_BPF_KEY_SIZE - off)
		return dt_fault(m, DTRACEFLT_TUPOFLOW, 0);
	if (is_string) {
		if (!val)
			return dt_fault(m, DTRACEFLT_BADADDR, 0);
		dt_put_str(m, DT_OFF(key), DT_BPF_KEY_SIZE, off, val, n);
		if (m->fault.code)
			return 0;
	} else {
		*(u64 *)&m->key[DT_CLAMP(off, DT_BPF_KEY_SIZE - 8)] = val;
	}
	m->tuple_used += n;
	m->tuple_n++;
	return 0;
}

DT_INLINE void dt_dyn_drop(void)
{
	struct dt_bpf_cpustate *c = dt_cpu();

	if (c)
		c->dyn_drops++;
}

/* A loaded value: by value, or a scratch copy of the by-ref bytes. */
DT_INLINE u64 dt_dvar_value(struct dt_bpf_mem *m, const void *v, u64 byref_size)
{
	u64 size = byref_size & ~(u64)DT_LIB_BYREF_STR, d;

	if (!v)
		return 0;
	if (!byref_size)
		return *(const u64 *)v;
	if (size > DT_VAL_LIMIT(byref_size))
		return dt_fault(m, DTRACEFLT_ILLOP, size);
	d = dt_alloc(m, size);
	if (!d)
		return 0;
	if (byref_size & DT_LIB_BYREF_STR) {
		/* A string: only its characters stay in scratch (dt_str_trim). */
		uint8_t *p = (uint8_t *)m +
			     DT_CLAMP(DT_OFF(scratch) + DT_BPF_TAG_OFF(d), DT_MEM_SIZE - DT_CHUNK);
		long r = bpf_probe_read_kernel_str(p, DT_CLAMP(size, DT_CHUNK), v);

		if (r > 0)
			dt_str_trim(m, d, size, r - 1);
		return d;
	}
	dt_xfer((uint8_t *)m, DT_OFF(scratch) + DT_BPF_TAG_OFF(d), DT_MEM_SIZE, (u64)v, size,
		DT_X_KERNEL);
	return d;
}

/* Stage the value to store in DT_TMP_A; returns its address or NULL (faulted). */
DT_INLINE void *dt_dvar_stage(struct dt_bpf_mem *m, u64 val, u64 byref_size)
{
	u64 size = byref_size & ~(u64)DT_LIB_BYREF_STR;
	void *p = DT_SP(m, DT_TMP_A);

	if (!byref_size) {
		*(u64 *)p = val;
		return p;
	}
	if (size > DT_VAL_LIMIT(byref_size)) {
		dt_fault(m, DTRACEFLT_ILLOP, size);
		return 0;
	}
	dt_xfer((uint8_t *)m, DT_OFF(scratch) + DT_TMP_A, DT_MEM_SIZE, 0, size, DT_X_ZERO);
	if (byref_size & DT_LIB_BYREF_STR) {
		if (dt_rd_str(m, DT_OFF(scratch) + DT_TMP_A, size > DT_CHUNK ? DT_CHUNK : size, val,
			      0) < 0)
			return 0;
	} else {
		dt_put_bytes(m, DT_OFF(scratch), DT_BPF_SCRATCH_SIZE, DT_TMP_A, val, size);
		if (m->fault.code)
			return 0;
	}
	return p;
}

/*
 * A struct-valued (by-ref, not string) load: the element, created zeroed
 * when missing (illumos allocates on a by-ref load), copied to scratch;
 * the copy and its key are remembered for write-through (dt_wb_flush).
 */
DT_SUB u64 dt_dvar_ref(struct dt_bpf_mem *m, void *map, void *key, u64 which, u64 size)
{
	u64 keysize = which == 1 ? DT_KEYHDR : DT_BPF_KEY_SIZE;
	void *v = bpf_map_lookup_elem(map, key);
	u64 d;

	if (!v) {
		dt_xfer((uint8_t *)m, DT_OFF(scratch) + DT_TMP_A, DT_MEM_SIZE, 0, DT_VAL_MAX,
			DT_X_ZERO);
		if (bpf_map_update_elem(map, key, DT_SP(m, DT_TMP_A), BPF_NOEXIST)) {
			dt_dyn_drop();
			return 0;
		}
		v = bpf_map_lookup_elem(map, key);
	}
	d = dt_dvar_value(m, v, size);
	if (!d)
		return 0;
	dt_xfer((uint8_t *)m, DT_OFF(wb_key), DT_MEM_SIZE, (u64)key, keysize, DT_X_KERNEL);
	m->wb_map = which;
	m->wb_lo = d;
	m->wb_hi = d + size;
	return d;
}

DT_API u64 dt_tls_load(struct dt_bpf_mem *m, u64 varid, u64 byref_size)
{
	struct dt_bpf_dvar_key k = {.varid = (uint32_t)varid, .tid = bpf_get_current_pid_tgid()};

	if (byref_size && !(byref_size & DT_LIB_BYREF_STR))
		return dt_dvar_ref(m, &dt_tls, &k, 1, byref_size);
	return dt_dvar_value(m, bpf_map_lookup_elem(&dt_tls, &k), byref_size);
}

DT_API u64 dt_tls_store(struct dt_bpf_mem *m, u64 varid, u64 val, u64 byref_size)
{
	struct dt_bpf_dvar_key k = {.varid = (uint32_t)varid, .tid = bpf_get_current_pid_tgid()};
	void *v;

	if (!val) {
		bpf_map_delete_elem(&dt_tls, &k);
		return 0;
	}
	v = dt_dvar_stage(m, val, byref_size);
	if (v && bpf_map_update_elem(&dt_tls, &k, v, BPF_ANY))
		dt_dyn_drop();
	return 0;
}

DT_INLINE void *dt_dvar_key(struct dt_bpf_mem *m, u64 varid, u64 thread)
{
	struct dt_bpf_dvar_key *k = (struct dt_bpf_dvar_key *)m->key;

	k->varid = (uint32_t)varid;
	k->pad = 0;
	k->tid = thread ? bpf_get_current_pid_tgid() : 0;
	return k;
}

DT_API u64 dt_dvar_load(struct dt_bpf_mem *m, u64 varid, u64 thread, u64 byref_size)
{
	if (byref_size && !(byref_size & DT_LIB_BYREF_STR))
		return dt_dvar_ref(m, &dt_dvars, dt_dvar_key(m, varid, thread), 2, byref_size);
	return dt_dvar_value(m, bpf_map_lookup_elem(&dt_dvars, dt_dvar_key(m, varid, thread)),
			     byref_size);
}

DT_API u64 dt_dvar_store(struct dt_bpf_mem *m, u64 varid, u64 thread, u64 val, u64 byref_size)
{
	void *k = dt_dvar_key(m, varid, thread), *v;

	if (!val) {
		bpf_map_delete_elem(&dt_dvars, k);
		return 0;
	}
	v = dt_dvar_stage(m, val, byref_size);
	if (v && bpf_map_update_elem(&dt_dvars, k, v, BPF_ANY))
		dt_dyn_drop();
	return 0;
}
