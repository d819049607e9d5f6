/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * lib_test.bpf.c - raw_tp wrappers around the BPF library (built static,
 * see dt_lib_impl.h DT_LIB_STATIC) for lib_test.cc: each program takes
 * its inputs from the test_run context (u64 c[0..]) and leaves the result
 * in this CPU's dt_mem entry: regs[0] the return value, fault the fault.
 */
#define DT_LIB_STATIC 1
#include "dt_lib.bpf.c"

DT_INLINE struct dt_bpf_mem *t_mem(void)
{
	uint32_t cpu = bpf_get_smp_processor_id();
	struct dt_bpf_mem *m = bpf_map_lookup_elem(&dt_mem, &cpu);

	if (m) {
		m->scratch_used = 0;
		m->fault.code = 0;
		m->fault.illval = 0;
		m->pc = 0;
		m->action = 0;
	}
	return m;
}

/*
 * Most string wrappers take strsize as the translator passes it, a
 * constant the verifier knows (DT_K hides it from clang only): SS, or
 * SSMAX in the k1024_* copies that measure the largest strsize. The t_*
 * wrappers whose strsize comes from the context (c[0]) test other sizes
 * and the verifier's worst case.
 */
#define DT_K(v) ({ u64 k_ = (v); DT_OPAQUE(k_); k_; })
#define SS DT_K(256)
#define SSMAX DT_K(1024)

#define T(name, call)                                   \
	SEC("raw_tp")                                   \
	int name(u64 *c)                                \
	{                                               \
		struct dt_bpf_mem *m = t_mem();         \
		if (!m)                                 \
			return 1;                       \
		m->regs[0] = (call);                    \
		return 0;                               \
	}

/* The kernel address of dt_globals' value: "kernel memory" with known bytes. */
T(t_kaddr, (u64)dt_map0(&dt_globals))
T(t_ld, dt_ld(m, c[0], c[1], c[2]))
T(t_uld, dt_uld(m, c[0], c[1], c[2]))
T(t_scmp, dt_scmp(m, c[0], c[1], c[2]))
T(k256_scmp, dt_scmp(m, c[0], c[1], SS))
T(k1024_scmp, dt_scmp(m, c[0], c[1], SSMAX))
T(t_strlen, dt_subr_strlen(m, c[0], c[1]))
T(k1024_strlen, dt_subr_strlen(m, SSMAX, c[1]))
T(t_strchr, dt_subr_strchr(m, SS, c[1], c[2]))
T(k1024_strchr, dt_subr_strchr(m, SSMAX, c[1], c[2]))
T(t_strrchr, dt_subr_strrchr(m, SS, c[1], c[2]))
T(k1024_strrchr, dt_subr_strrchr(m, SSMAX, c[1], c[2]))
T(t_strstr, dt_subr_strstr(m, SS, c[1], c[2]))
T(k1024_strstr, dt_subr_strstr(m, SSMAX, c[1], c[2]))
T(t_index, dt_subr_index(m, SS, c[1], c[2], c[3]))
T(k1024_index, dt_subr_index(m, SSMAX, c[1], c[2], c[3]))
T(t_rindex, dt_subr_rindex(m, SS, c[1], c[2], c[3]))
T(k1024_rindex, dt_subr_rindex(m, SSMAX, c[1], c[2], c[3]))
T(t_strtoll, dt_subr_strtoll(m, SS, c[1], c[2]))
T(k1024_strtoll, dt_subr_strtoll(m, SSMAX, c[1], c[2]))
T(t_rec_bytes, dt_rec_bytes(m, c[0], c[1], c[2]))
T(t_rec_str, dt_rec_str(m, c[0], c[1], c[2]))
T(t_key_str, dt_key_str(m, c[0], c[1], c[2]))
T(t_key_bytes, dt_key_bytes(m, c[0], c[1], c[2]))
T(t_rec_stack, dt_rec_stack(c, m, c[0], c[1]))
T(t_rec_ustack, dt_rec_ustack(c, m, c[0], c[1]))
T(t_progenyof, dt_subr_progenyof(m, 0, c[0]))
T(t_copyinto, dt_subr_copyinto(m, c[0], c[1], c[2], c[3]))
T(t_alloca, dt_subr_alloca(m, 0, c[0]))
/* Costs with the constants the translator passes (variable ids, agg parameters). */
T(k_execname, dt_builtin(c, m, DT_K(DIF_VAR_EXECNAME), SS))
T(k_probefunc, dt_builtin(c, m, DT_K(DIF_VAR_PROBEFUNC), SS))
T(k_ppid, dt_builtin(c, m, DT_K(DIF_VAR_PPID), SS))
T(k_stackdepth, dt_builtin(c, m, DT_K(DIF_VAR_STACKDEPTH), SS))
T(k_llqbin, dt_agg_llqbin(c[0], DT_K(10), DT_K(0), DT_K(6), DT_K(20)))
T(k_tls_str, dt_tls_load(m, DT_K(0x500), DT_K(256 | DT_LIB_BYREF_STR)))
T(k_tls_store_str, dt_tls_store(m, DT_K(0x500), c[0], DT_K(256 | DT_LIB_BYREF_STR)))
T(k_copy, dt_copy(m, c[0], c[1], c[2]))
T(t_inet_ntop, dt_subr_inet_ntop(m, 0, c[0], c[1]))
T(t_inet_ntoa6, dt_subr_inet_ntoa6(m, 0, c[0], c[1]))
T(k1024_strtok, dt_subr_strtok(m, SSMAX, c[1], c[2]))
T(t_cleanpath, dt_subr_cleanpath(m, SS, c[1]))
T(k1024_cleanpath, dt_subr_cleanpath(m, SSMAX, c[1]))
/* d_path(): its walk is a bpf_loop step, checked once whatever strsize. */
T(k_d_path, dt_subr_d_path(m, SS, c[1]))
/*
 * strsize 4096 (the option; 4097 with the NUL), the largest the engine
 * accepts: what moves strings (helper copies) and the word-at-a-time
 * loops. The byte-at-a-time functions and copyinargs stop at 1024
 * (DT_BPF_STRFUNC_MAX, k1024_* above).
 */
#define SSBIG DT_K(4097)
T(k4097_scmp, dt_scmp(m, c[0], c[1], SSBIG))
T(k4097_strlen, dt_subr_strlen(m, SSBIG, c[1]))
T(k4097_d_path, dt_subr_d_path(m, SSBIG, c[1]))
T(k4097_strchr, dt_subr_strchr(m, SSBIG, c[1], c[2]))
T(k4097_strrchr, dt_subr_strrchr(m, SSBIG, c[1], c[2]))
T(k4097_toupper, dt_subr_toupper(m, SSBIG, c[1]))
T(k4097_substr, dt_subr_substr(m, SSBIG, c[1], c[2], c[3]))
T(k4097_strjoin, dt_subr_strjoin(m, SSBIG, c[1], c[2]))
T(k4097_copyinstr, dt_subr_copyinstr(m, SSBIG, c[1], c[2]))
T(k4097_strdup, dt_strdup(m, c[1], SSBIG))
T(k4097_tls_store_str, dt_tls_store(m, DT_K(0x500), c[0], DT_K(4097 | DT_LIB_BYREF_STR)))
T(k4097_tls_str, dt_tls_load(m, DT_K(0x500), DT_K(4097 | DT_LIB_BYREF_STR)))
T(k4097_tuple_str, dt_tuple_push(m, c[1], DT_K(1), SSBIG))

/* strtok(c[1], c[2]), then strtok(NULL, c[3]) c[4] times: regs[0..] the tokens. */
SEC("raw_tp")
int t_strtok(u64 *c)
{
	struct dt_bpf_mem *m = t_mem();

	if (!m)
		return 1;
	m->strtok_addr = 0;
	m->regs[0] = dt_subr_strtok(m, SS, c[1], c[2]);
	if (c[4] > 0 && !m->fault.code)
		m->regs[1] = dt_subr_strtok(m, SS, 0, c[3]);
	if (c[4] > 1 && !m->fault.code)
		m->regs[2] = dt_subr_strtok(m, SS, 0, c[3]);
	if (c[4] > 2 && !m->fault.code)
		m->regs[3] = dt_subr_strtok(m, SS, 0, c[3]);
	return 0;
}
T(t_substr, dt_subr_substr(m, SS, c[1], c[2], c[3]))
T(k1024_substr, dt_subr_substr(m, SSMAX, c[1], c[2], c[3]))
T(t_strjoin, dt_subr_strjoin(m, c[0], c[1], c[2]))
T(k1024_strjoin, dt_subr_strjoin(m, SSMAX, c[1], c[2]))
T(t_toupper, dt_subr_toupper(m, SS, c[1]))
T(k1024_toupper, dt_subr_toupper(m, SSMAX, c[1]))
T(t_tolower, dt_subr_tolower(m, SS, c[1]))
T(t_lltostr, dt_subr_lltostr(m, SS, c[1], c[2]))
T(t_basename, dt_subr_basename(m, SS, c[1]))
T(k1024_basename, dt_subr_basename(m, SSMAX, c[1]))
T(t_dirname, dt_subr_dirname(m, SS, c[1]))
T(k1024_dirname, dt_subr_dirname(m, SSMAX, c[1]))
T(t_inet_ntoa, dt_subr_inet_ntoa(m, c[0], c[1]))
T(t_copyinstr, dt_subr_copyinstr(m, c[0], c[1], c[2]))
T(t_copyin, dt_subr_copyin(m, c[0], c[1], c[2]))
T(t_hton, dt_subr_htons(m, 0, c[0]) ^ dt_subr_htonl(m, 0, c[1]) ^ dt_subr_htonll(m, 0, c[2]))
T(t_qbin, dt_agg_qbin(c[0]))
T(t_lqbin, dt_agg_lqbin(c[0], c[1], c[2], c[3]))
T(t_llqbin, dt_agg_llqbin(c[0], c[1], c[2], c[3], c[4]))
T(t_builtin, dt_builtin(c, m, c[0], c[1]))
T(t_strdup, dt_strdup(m, c[0], c[1]))

/* st then ld through an alloca'd block. */
SEC("raw_tp")
int t_st(u64 *c)
{
	struct dt_bpf_mem *m = t_mem();
	u64 a;

	if (!m)
		return 1;
	a = c[3] ? c[3] : dt_alloc(m, 16);
	m->regs[1] = a;
	if (!a)
		return 0;
	dt_st(m, a + c[0], c[1], c[2]);
	if (m->fault.code)
		return 0;
	m->regs[0] = dt_ld(m, a + c[0], c[2], 0);
	return 0;
}

/* tls: c[0] op (0 load, 1 store), c[1] varid, c[2] value, c[3] byref_size. */
SEC("raw_tp")
int t_tls(u64 *c)
{
	struct dt_bpf_mem *m = t_mem();

	if (!m)
		return 1;
	if (c[0])
		m->regs[0] = dt_tls_store(m, c[1], c[2], c[3]);
	else
		m->regs[0] = dt_tls_load(m, c[1], c[3]);
	return 0;
}

/* a[c[4], "key"]: c[0] op, c[1] varid, c[2] value, c[3] byref_size, c[5] the key string. */
SEC("raw_tp")
int t_dvar(u64 *c)
{
	struct dt_bpf_mem *m = t_mem();

	if (!m)
		return 1;
	dt_tuple_reset(m, 0);
	dt_tuple_push(m, c[4], 0, 64);
	dt_tuple_push(m, c[5], 1, 64);
	if (m->fault.code)
		return 0;
	if (c[0])
		m->regs[0] = dt_dvar_store(m, c[1], 0, c[2], c[3]);
	else
		m->regs[0] = dt_dvar_load(m, c[1], 0, c[3]);
	return 0;
}

/* A firing of c[0] bytes: a record header (epid c[1]) and a string record. */
SEC("raw_tp")
int t_emit(u64 *c)
{
	struct dt_bpf_mem *m = t_mem();

	if (!m)
		return 1;
	*(uint32_t *)&m->buf[8] = (uint32_t)c[1];
	dt_rec_str(m, 20, c[2], 32);
	m->regs[0] = dt_emit_firing(m, c[0]);
	return 0;
}

SEC("raw_tp")
int t_fault(u64 *c)
{
	struct dt_bpf_mem *m = t_mem();

	if (!m)
		return 1;
	m->epid = c[0];
	m->pc = 12;
	m->action = 2;
	dt_ld(m, c[1], 8, 0);
	m->regs[0] = dt_emit_fault(m);
	return 0;
}

SEC("raw_tp")
int t_exit(u64 *c)
{
	struct dt_bpf_mem *m = t_mem();

	if (!m)
		return 1;
	m->regs[0] = dt_exit(m);
	return 0;
}

/*
 * Copies to c[0] bytes into a fresh 8-aligned scratch block of c[5] bytes
 * (64 if 0; its address in regs[1]), or into address c[3] when not 0:
 * c[4] selects dt_copy (0), bcopy (1), copyinto (2, c[1] a user address).
 */
SEC("raw_tp")
int t_copy(u64 *c)
{
	struct dt_bpf_mem *m = t_mem();
	u64 a;

	if (!m)
		return 1;
	a = c[3] ? c[3] : dt_alloc(m, c[5] ? c[5] : 64);
	m->regs[1] = a;
	if (!a)
		return 0;
	if (c[4] == 0)
		m->regs[0] = dt_copy(m, a + c[0], c[1], c[2]);
	else if (c[4] == 1)
		m->regs[0] = dt_subr_bcopy(m, 0, c[1], a + c[0], c[2]);
	else
		m->regs[0] = dt_subr_copyinto(m, 0, c[1], c[2], a + c[0]);
	return 0;
}

/* profile-N's prologue helper on a real perf event: counts samples, keeps the last. */
SEC("perf_event")
int t_perf_args(void *ctx)
{
	uint32_t cpu = bpf_get_smp_processor_id();
	struct dt_bpf_mem *m = bpf_map_lookup_elem(&dt_mem, &cpu);

	if (!m)
		return 0;
	dt_perf_args(ctx, m);
	m->regs[2] = m->args[0];
	m->regs[3] = m->args[1];
	m->regs[4]++;
	return 0;
}

