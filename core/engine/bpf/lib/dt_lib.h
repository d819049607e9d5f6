/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * dt_lib.h - the BPF library: functions the translated DIF calls.
 *
 * Built with clang -target bpf at build time into one object whose .text
 * the translator's linker (link.cc) appends to every program it emits;
 * calls are BPF-to-BPF calls (static subprograms: verified in the caller's
 * context), map references are relocated by symbol name to the runtime's
 * map fds (the DT_BPF_MAP_* names of dt_bpf_abi.h). Nothing is compiled at
 * run time.
 *
 * Calling contract, for every function below:
 *   - arguments and return value are 64-bit (BPF r1..r5 -> r0); `m` is
 *     this CPU's struct dt_bpf_mem (a map value pointer), `ctx` the
 *     program's context pointer;
 *   - functions marked FAULTS may set m->fault (code, illval; the caller
 *     has set m->pc and m->action) and return 0: the caller checks
 *     m->fault.code after the call and takes its fault path;
 *   - strings are addresses (tagged or kernel; see dt_bpf_abi.h) of
 *     NUL-terminated bytes, read at most `strsize` bytes (m-independent:
 *     passed where needed); string results are fresh scratch allocations
 *     (DT_BPF_TAG_SCRATCH addresses) of strsize bytes; scratch exhaustion
 *     faults DTRACEFLT_NOSCRATCH;
 *   - no function loops more than strsize (<= DT_BPF_STRSIZE_MAX) times, or
 *     DT_BPF_STRFUNC_MAX for those walking a byte per step.
 *
 * Subroutines: DIF's `call` of subroutine NAME (dif.h DIF_SUBR_NAME,
 * lower-cased) is a call of dt_subr_NAME(m, strsize, args...) with the
 * subroutine's D arguments in order (at most 3). The translator refuses,
 * with a message naming the subroutine, a program that calls one the
 * library does not define.
 *
 * (Appended by the translator.) Optional arguments: the translator always
 * passes all three argument registers, 0 for arguments the D call did not
 * give, and stores the number given in m->subr_nargs before the call
 * (substr(s, 1) has 2, substr(s, 1, 0) has 3).
 */
#ifndef DT_LIB_H
#define DT_LIB_H

#include "../abi/dt_bpf_abi.h"

typedef uint64_t u64;
struct dt_bpf_mem;

/* Memory. size is 1, 2, 4 or 8; sign-extends when is_signed. FAULTS. */
u64 dt_ld(struct dt_bpf_mem *m, u64 addr, u64 size, u64 is_signed);  /* kernel or tagged */
u64 dt_uld(struct dt_bpf_mem *m, u64 addr, u64 size, u64 is_signed); /* user (current) */
/* Store into DTrace-owned (tagged scratch) memory only (stb..stx). FAULTS. */
u64 dt_st(struct dt_bpf_mem *m, u64 addr, u64 val, u64 size);
/* Copy size bytes from any readable address to tagged memory (copys). FAULTS. */
u64 dt_copy(struct dt_bpf_mem *m, u64 dst, u64 src, u64 size);
/* Allocate size zeroed bytes of scratch (allocs, alloca). FAULTS. */
u64 dt_alloc(struct dt_bpf_mem *m, u64 size);
/* Copy the string at src (any space) into a fresh scratch string. FAULTS. */
u64 dt_strdup(struct dt_bpf_mem *m, u64 src, u64 strsize);
/*
 * Write a string record: at most size-1 bytes of the string at src, then
 * NUL padding, into m->buf[off..off+size) (off from the start of buf, so
 * the sample header is included). src 0 writes an empty string. FAULTS.
 */
u64 dt_rec_str(struct dt_bpf_mem *m, u64 off, u64 src, u64 size);
/* Write size bytes from src (any readable space) into m->buf[off]. FAULTS. */
u64 dt_rec_bytes(struct dt_bpf_mem *m, u64 off, u64 src, u64 size);
/* Same two, into m->key[off] (aggregation and dvar keys). FAULTS. */
u64 dt_key_str(struct dt_bpf_mem *m, u64 off, u64 src, u64 size);
u64 dt_key_bytes(struct dt_bpf_mem *m, u64 off, u64 src, u64 size);

/* scmp: strcmp of two strings (any space), <0, 0, >0 as int64. FAULTS. */
u64 dt_scmp(struct dt_bpf_mem *m, u64 a, u64 b, u64 strsize);

/*
 * Built-in variables other than arg0-9/args[] (m->args), epid, id and
 * errno: DIF_VAR_* id -> value; strings (execname, probe*, zonename) are
 * scratch copies. Unknown ids fault DTRACEFLT_ILLOP. FAULTS.
 */
u64 dt_builtin(void *ctx, struct dt_bpf_mem *m, u64 var, u64 strsize);
/*
 * uregs[i] for i in 0..20: slot i of the current task's saved user-mode
 * registers (struct pt_regs, bpf_task_pt_regs); the compiler reads the
 * slots after pt_regs (segments, trap number) from the task itself.
 * Other indexes fault DTRACEFLT_ILLOP. FAULTS.
 */
u64 dt_uregs(struct dt_bpf_mem *m, u64 i);
/* stack()/ustack(): nframes pcs at m->buf[off], 0-terminated. */
u64 dt_rec_stack(void *ctx, struct dt_bpf_mem *m, u64 off, u64 nframes);
u64 dt_rec_ustack(void *ctx, struct dt_bpf_mem *m, u64 off, u64 nframes);
/* ustack() with -x ustackbytes: registers and a copy of the user stack in
 * a record of size bytes at m->buf[off] (DT_BPF_USTACK_*). */
u64 dt_rec_ustack_regs(void *ctx, struct dt_bpf_mem *m, u64 off, u64 size);

/*
 * Dynamic variables. The tuple (assoc array keys) is staged in m->key
 * after the dt_bpf_dvar_key header: dt_tuple_reset() (zeroing the first
 * keysize bytes, the dt_dvars map's key size; 0: DT_BPF_KEY_SIZE), then one
 * dt_tuple_push per key, integers as 8 bytes and strings as strsize bytes.
 * Loads return the value (by-value) or a scratch copy's address (by-ref,
 * size bytes), 0 if the variable does not exist; storing 0 deletes it; a
 * full map counts a dynamic drop (dt_cpustate) and stores nothing.
 */
u64 dt_tuple_reset(struct dt_bpf_mem *m, u64 keysize);
u64 dt_tuple_push(struct dt_bpf_mem *m, u64 val, u64 is_string, u64 strsize); /* FAULTS */
u64 dt_tls_load(struct dt_bpf_mem *m, u64 varid, u64 byref_size);	       /* FAULTS */
u64 dt_tls_store(struct dt_bpf_mem *m, u64 varid, u64 val, u64 byref_size);   /* FAULTS */
/* thread: 1 for self->a[...] (ldtaa/sttaa), 0 for a[...] (ldgaa/stgaa). */
u64 dt_dvar_load(struct dt_bpf_mem *m, u64 varid, u64 thread, u64 byref_size);	/* FAULTS */
u64 dt_dvar_store(struct dt_bpf_mem *m, u64 varid, u64 thread, u64 val, u64 byref_size); /* FAULTS */

/* Aggregation bucket indexes (actions.h layouts); the caller adds. */
u64 dt_agg_qbin(u64 val);					 /* quantize: 0..126 */
u64 dt_agg_lqbin(u64 val, u64 base, u64 step, u64 levels);	 /* 0..levels+1 */
u64 dt_agg_llqbin(u64 val, u64 factor, u64 low, u64 high, u64 nsteps); /* 0.. */

/*
 * Samples. dt_emit_firing: m->buf holds the sample header (filled here)
 * and `size` bytes of firing; outputs it to dt_ring (waking the consumer
 * only past the ring's quarter-full mark: emit.bpf.c), or counts a principal
 * drop. dt_emit_fault: a fault sample from m->fault and
 * m->epid, then clears m->fault.
 */
u64 dt_emit_firing(struct dt_bpf_mem *m, u64 size);
u64 dt_emit_fault(struct dt_bpf_mem *m);
/* exit(): dt_status.activity = DRAINING (first caller's CPU kept). */
u64 dt_exit(struct dt_bpf_mem *m);
/*
 * chill(ns): spins ns nanoseconds in probe context (bpf_loop polling
 * bpf_ktime_get_ns; the one callback of the library), at most
 * DT_CHILL_MAX per DT_CHILL_INTERVAL on a CPU, beyond which it faults
 * ILLOP instead, as illumos dtrace_action_chill(). m->timestamp is read
 * again afterwards. FAULTS
 */
u64 dt_chill(struct dt_bpf_mem *m, u64 ns);

/* Prologue helpers for perf-event programs (profile-N, tick-N). */
u64 dt_perf_args(void *ctx, struct dt_bpf_mem *m); /* arg0 kernel pc, arg1 user pc */

/* ---- Appended by the library (lib/) ---- */

/*
 * byref_size of the dt_tls_* / dt_dvar_* functions for a STRING variable:
 * its size (strsize) | DT_LIB_BYREF_STR, so that the store copies up to the
 * NUL (at most size - 1 characters) instead of size raw bytes, which could
 * read past a short kernel string. By-ref values are at most 4096 bytes.
 */
#define DT_LIB_BYREF_STR 0x40000000ULL

/*
 * Optional D arguments: a call with fewer arguments passes the value that
 * means "absent" (each gives exactly the interpreter's default behaviour):
 *   substr(s, i [, len])       len   = strsize
 *   index(s, t [, start])      start = 0
 *   rindex(s, t [, start])     start = DT_LIB_RINDEX_END (INT64_MAX)
 *   lltostr(v [, base])        base  = 10
 *   strtoll(s [, base])        base  = 10
 *   copyinstr(a [, len])       len   = strsize (anything >= strsize)
 */
#define DT_LIB_RINDEX_END 0x7fffffffffffffffULL

/*
 * Subroutines (DIF_OP_CALL): dt_subr_NAME(m, strsize, D arguments...).
 * Strings in, strings out as described at the top. No function here
 * uses bpf_loop or any callback (so no BPF_PSEUDO_FUNC and no func_info)
 * but dt_chill and dt_subr_d_path.
 *
 * Verifier cost (second round): every function is verified again at each
 * call, in the caller's state; pass strsize (and variable ids, sizes,
 * aggregation parameters) as constants, as the translator does, and a
 * call costs the verifier at most a few thousand instructions, except
 * (strsize 256 / 1024): basename, dirname, strtoll ~15K / ~60K, strtok
 * ~20K / ~80K, strstr, index, rindex ~50K / ~190K (two KMP loops of
 * 2 * strsize + 2 steps each). tests/engine/bpf/lib/lib_cost_test.cc
 * prints the table.
 */
u64 dt_subr_strlen(struct dt_bpf_mem *m, u64 strsize, u64 s);
u64 dt_subr_strchr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 c);
u64 dt_subr_strrchr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 c);
u64 dt_subr_strstr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 t);
u64 dt_subr_index(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 t, u64 start);
u64 dt_subr_rindex(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 t, u64 start);
u64 dt_subr_substr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 index, u64 len);
u64 dt_subr_strjoin(struct dt_bpf_mem *m, u64 strsize, u64 a, u64 b);
u64 dt_subr_toupper(struct dt_bpf_mem *m, u64 strsize, u64 s);
u64 dt_subr_tolower(struct dt_bpf_mem *m, u64 strsize, u64 s);
u64 dt_subr_lltostr(struct dt_bpf_mem *m, u64 strsize, u64 v, u64 base);
u64 dt_subr_strtoll(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 base);
u64 dt_subr_copyinargs(struct dt_bpf_mem *m, u64 strsize, u64 uaddr, u64 len);
u64 dt_subr_basename(struct dt_bpf_mem *m, u64 strsize, u64 s);
u64 dt_subr_dirname(struct dt_bpf_mem *m, u64 strsize, u64 s);
u64 dt_subr_htons(struct dt_bpf_mem *m, u64 strsize, u64 v);
u64 dt_subr_htonl(struct dt_bpf_mem *m, u64 strsize, u64 v);
u64 dt_subr_htonll(struct dt_bpf_mem *m, u64 strsize, u64 v);
u64 dt_subr_ntohs(struct dt_bpf_mem *m, u64 strsize, u64 v);
u64 dt_subr_ntohl(struct dt_bpf_mem *m, u64 strsize, u64 v);
u64 dt_subr_ntohll(struct dt_bpf_mem *m, u64 strsize, u64 v);
u64 dt_subr_getmajor(struct dt_bpf_mem *m, u64 strsize, u64 dev);
u64 dt_subr_getminor(struct dt_bpf_mem *m, u64 strsize, u64 dev);
u64 dt_subr_rand(struct dt_bpf_mem *m, u64 strsize);
u64 dt_subr_alloca(struct dt_bpf_mem *m, u64 strsize, u64 size);
u64 dt_subr_bcopy(struct dt_bpf_mem *m, u64 strsize, u64 src, u64 dst, u64 size);
u64 dt_subr_copyin(struct dt_bpf_mem *m, u64 strsize, u64 uaddr, u64 size);
u64 dt_subr_copyinto(struct dt_bpf_mem *m, u64 strsize, u64 uaddr, u64 size, u64 dst);
u64 dt_subr_copyinstr(struct dt_bpf_mem *m, u64 strsize, u64 uaddr, u64 len);
/* Destructive (the engine refuses them without -w): bpf_probe_write_user. */
u64 dt_subr_copyout(struct dt_bpf_mem *m, u64 strsize, u64 src, u64 uaddr, u64 size);
u64 dt_subr_copyoutstr(struct dt_bpf_mem *m, u64 strsize, u64 src, u64 uaddr, u64 maxlen);
u64 dt_subr_inet_ntoa(struct dt_bpf_mem *m, u64 strsize, u64 addr);
u64 dt_subr_progenyof(struct dt_bpf_mem *m, u64 strsize, u64 pid);

/* (Appended by the library, second round.) af: Linux AF_INET 2, AF_INET6 10. */
u64 dt_subr_strtok(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 delims);
u64 dt_subr_inet_ntop(struct dt_bpf_mem *m, u64 strsize, u64 af, u64 addr);
u64 dt_subr_inet_ntoa6(struct dt_bpf_mem *m, u64 strsize, u64 addr, u64 strict);
u64 dt_subr_link_ntop(struct dt_bpf_mem *m, u64 strsize, u64 type, u64 addr);
u64 dt_subr_cleanpath(struct dt_bpf_mem *m, u64 strsize, u64 path);

/*
 * (Appended: lib/subr_dpath.bpf.c.) d_path(struct path *) as Linux's
 * d_path() writes it, walked in bpf_loop (its step is a callback: a
 * program that calls it loads with func_info, as one calling dt_chill);
 * the offsets come from dt_status (dt_bpf_dpath_offsets). FAULTS.
 */
u64 dt_subr_d_path(struct dt_bpf_mem *m, u64 strsize, u64 path);

/*
 * (Appended: speculations, lib/spec.bpf.c; dt_bpf_abi.h dt_spec.)
 * speculation() is dt_subr_speculation: a free id made active, or 0 (a
 * failed speculation counted). For a clause with speculate(id):
 * dt_spec_speculate returns the tag to store after the firing as struct
 * dt_bpf_spec_tag ((gen << 32) | id), or 0: drop the firing; the firing
 * is then written with dt_emit_spec (as dt_emit_firing, the tag after
 * `size` bytes). commit()/discard(): dt_spec_check(id) where the action
 * runs, then dt_spec_end(id, commit) after the clause's own firing.
 * An id above nspec faults ILLOP (illval: the id). FAULTS: speculate, check.
 * dt_subr_speculation loops over the ids: at most DT_BPF_NSPEC_MAX (256) times.
 */
u64 dt_subr_speculation(struct dt_bpf_mem *m, u64 strsize);
u64 dt_spec_speculate(struct dt_bpf_mem *m, u64 id);
u64 dt_spec_check(struct dt_bpf_mem *m, u64 id);
u64 dt_emit_spec(struct dt_bpf_mem *m, u64 size);
u64 dt_spec_end(struct dt_bpf_mem *m, u64 id, u64 commit);

/*
 * (Appended: the lock subroutines, lib/subr_lock.bpf.c.) mutex_*: a
 * struct mutex, as the kernel's BTF lays it out (dt_bpf_status
 * mutex_owner); rw_*: a rwlock_t's queued-lock word.
 */
u64 dt_subr_mutex_owned(struct dt_bpf_mem *m, u64 strsize, u64 addr);
u64 dt_subr_mutex_owner(struct dt_bpf_mem *m, u64 strsize, u64 addr);
u64 dt_subr_mutex_type_adaptive(struct dt_bpf_mem *m, u64 strsize, u64 addr);
u64 dt_subr_mutex_type_spin(struct dt_bpf_mem *m, u64 strsize, u64 addr);
u64 dt_subr_rw_read_held(struct dt_bpf_mem *m, u64 strsize, u64 addr);
u64 dt_subr_rw_write_held(struct dt_bpf_mem *m, u64 strsize, u64 addr);
u64 dt_subr_rw_iswriter(struct dt_bpf_mem *m, u64 strsize, u64 addr);

#endif /* DT_LIB_H */
