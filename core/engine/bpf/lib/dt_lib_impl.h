/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * dt_lib_impl.h - what the library's sources share (not part of the
 * contract; dt_lib.h is): the DTrace constants the library needs (the uapi
 * headers pull in <stdint.h>, which -target bpf cannot use; the GoogleTest
 * checks these copies against uapi/dtrace), fault recording, tagged-address
 * resolution, and the bounded copy primitives every other file uses.
 *
 * Scratch: m->scratch[0 .. DT_SCRATCH_USABLE) is what dt_alloc hands out;
 * above it, DT_STRTOK_SIZE bytes keep strtok()'s copy of the string being
 * tokenised for the whole probe firing (subr_tok.bpf.c: only strtok reads
 * or writes it, no DIF address reaches it); the top 24 KiB are three 8 KiB
 * temporaries (DT_TMP_A, DT_TMP_B, DT_TMP_C)
 * where string arguments are fetched (one bpf_probe_read_*_str each, a
 * string of DT_BPF_STRSIZE_MAX and the NUL after it fit) so that every
 * string loop walks map memory, where dynamic-variable values are staged
 * (A), and where index/strstr keep their table (C). The loop result slots
 * (DT_RES) are C's last 256 bytes. They are never live across library
 * calls.
 *
 * Verifier discipline: every access through a variable offset goes through
 * dt_xfer() (helper-based, bounds proven per piece) or is bounded with
 * DT_CLAMP() (an asm compare clang cannot drop) just before the access.
 */
#ifndef DT_LIB_IMPL_H
#define DT_LIB_IMPL_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifdef DT_LIB_STATIC
/* Static build (tests): skip dt_lib.h's extern prototypes, keep its macros. */
#define DT_LIB_H
#include "../abi/dt_bpf_abi.h"
typedef uint64_t u64;
#define DT_LIB_BYREF_STR 0x40000000ULL
#define DT_LIB_RINDEX_END 0x7fffffffffffffffULL
#endif
#include "dt_lib.h"

/* uapi/dtrace/dif.h (checked by tests/engine/bpf/lib). */
#define DTRACEFLT_BADADDR 1
#define DTRACEFLT_BADALIGN 2
#define DTRACEFLT_ILLOP 3
#define DTRACEFLT_NOSCRATCH 5
#define DTRACEFLT_TUPOFLOW 8

#define DIF_VAR_UREGS 0x0002
#define DIF_VAR_CURTHREAD 0x0100
#define DIF_VAR_TIMESTAMP 0x0101
#define DIF_VAR_VTIMESTAMP 0x0102
#define DIF_VAR_IPL 0x0103
#define DIF_VAR_EPID 0x0104
#define DIF_VAR_ID 0x0105
#define DIF_VAR_ARG0 0x0106
#define DIF_VAR_ARG9 0x010f
#define DIF_VAR_STACKDEPTH 0x0110
#define DIF_VAR_CALLER 0x0111
#define DIF_VAR_PROBEPROV 0x0112
#define DIF_VAR_PROBEMOD 0x0113
#define DIF_VAR_PROBEFUNC 0x0114
#define DIF_VAR_PROBENAME 0x0115
#define DIF_VAR_PID 0x0116
#define DIF_VAR_TID 0x0117
#define DIF_VAR_EXECNAME 0x0118
#define DIF_VAR_ZONENAME 0x0119
#define DIF_VAR_WALLTIMESTAMP 0x011a
#define DIF_VAR_USTACKDEPTH 0x011b
#define DIF_VAR_UCALLER 0x011c
#define DIF_VAR_PPID 0x011d
#define DIF_VAR_UID 0x011e
#define DIF_VAR_GID 0x011f
#define DIF_VAR_ERRNO 0x0120
#define DIF_VAR_CPU 0x0121
#define DIF_VAR_NSPID 0x0130
#define DIF_VAR_NSTID 0x0131
#define DIF_VAR_NSPPID 0x0132
#define DIF_VAR_CGROUP 0x0133

#define DIF_DTR_NREGS 8 /* tuple stack depth */

/*
 * API functions are global (matching dt_lib.h) in the library object; the
 * libbpf-loaded tests build them static (DT_LIB_STATIC), because libbpf
 * hands the kernel BTF func_info and the verifier checks global functions
 * on their own, against their BTF types, which a map-value `m` fails.
 */
#ifdef DT_LIB_STATIC
#define DT_API static __attribute__((noinline))
#else
#define DT_API __attribute__((noinline))
#endif
#define DT_INLINE static __attribute__((always_inline)) inline
#define DT_SUB static __attribute__((noinline))

#define DT_MEM_SIZE ((u64)sizeof(struct dt_bpf_mem))
#define DT_OFF(field) ((u64)__builtin_offsetof(struct dt_bpf_mem, field))
#define DT_TMP_SIZE 8192
/* strtok's strsize is at most DT_BPF_STRFUNC_MAX (codegen_subr.cc). */
#define DT_STRTOK_SIZE DT_BPF_STRFUNC_MAX
#define DT_SCRATCH_USABLE (DT_BPF_SCRATCH_SIZE - 3 * DT_TMP_SIZE - DT_STRTOK_SIZE)
#define DT_STRTOK_BUF DT_SCRATCH_USABLE
#define DT_TMP_A (DT_BPF_SCRATCH_SIZE - 3 * DT_TMP_SIZE)
#define DT_TMP_B (DT_TMP_A + DT_TMP_SIZE)
#define DT_TMP_C (DT_TMP_A + 2 * DT_TMP_SIZE)
#define DT_CHUNK DT_TMP_SIZE /* the longest string one dt_rd_str reads */

/* Kinds of dt_xfer. */
#define DT_X_KERNEL 0 /* bpf_probe_read_kernel (kernel or map memory) */
#define DT_X_USER 1   /* bpf_probe_read_user */
#define DT_X_ZERO 2   /* zero the destination */
#define DT_X_GLOBALS 16 /* the destination is dt_globals' value, not m */
/* dt_xfer into m (the usual case). */
#define dt_xfer(base, off, lim, src, size, kind) dt_xfer_(base, off, src, size, kind)

/*
 * x <= max for the verifier, or x = 0 (callers have checked already).
 * Clamped twice, through a second register: verifiers before 6.8 walk
 * branches that cannot be taken and may give x impossible bounds there
 * (umin > umax, after a compare against a tnum it contradicts), and a
 * pointer plus such a scalar becomes a scalar ("R1 type=scalar expected=
 * ..." at the helper call on Linux 6.1). 0 + such a scalar is an unknown
 * scalar, which the second compare bounds again; where x's bounds are
 * sound the second compare is always true and costs no verifier state.
 */
#define DT_CLAMP(x, max)                                                          \
	({                                                                        \
		u64 __x = (x), __y;                                               \
		asm volatile("if %0 <= %2 goto +1\n\t%0 = 0\n\t"                    \
			     "%1 = 0\n\t%1 += %0\n\t"                                \
			     "if %1 <= %2 goto +1\n\t%1 = 0"                           \
			     : "+r"(__x), "=&r"(__y) : "i"(max));                  \
		__y;                                                              \
	})
/* Hide a value's provenance from clang (keeps verifier-visible compares). */
#define DT_OPAQUE(x) asm volatile("" : "+r"(x))


/*
 * Branch-free 0/1 flags and selection for loop bodies. The flags are
 * computed in asm: clang turns (x - 1) >> 63 and the like back into
 * compares and jumps. dt_sel multiplies: the verifier (6.17+) explores an
 * AND with a [-1, 0] mask as two states, one per value.
 */
DT_INLINE u64 dt_iszero(u64 x) /* x == 0, for x < 2^63 */
{
	asm volatile("%0 += -1\n\t%0 >>= 63" : "+r"(x));
	return x;
}
DT_INLINE u64 dt_nz(u64 x) /* x != 0 */
{
	u64 r;

	asm volatile("%0 = %1\n\t%0 = -%0\n\t%0 |= %1\n\t%0 >>= 63" : "=&r"(r) : "r"(x));
	return r;
}
DT_INLINE u64 dt_lt(u64 a, u64 b) /* a < b, both below 2^63 */
{
	asm volatile("%0 -= %1\n\t%0 >>= 63" : "+r"(a) : "r"(b));
	return a;
}
DT_INLINE u64 dt_sel(u64 c, u64 a, u64 b) /* c ? a : b, c 0 or 1 */
{
	return b + (a - b) * c;
}

/*
 * Loop bodies are branch-free but for their exits: the verifier adds
 * states at a loop's head only now and then, so paths that split inside
 * the body would be walked separately through every later iteration.
 *
 * Loop results go through map memory: a value a loop computes is stored in
 * a result slot and read back after the loop, so that the verifier sees
 * one unknown scalar instead of one state per exit iteration (which would
 * make it walk the rest of the function once per possible exit).
 */
#define DT_RES(k) (DT_TMP_C + DT_TMP_SIZE - 256 + 8 * (k))

/* Record the first fault; the caller's m->pc/m->action locate it. Returns 0. */
DT_INLINE u64 dt_fault(struct dt_bpf_mem *m, u64 code, u64 illval)
{
	if (!m->fault.code) {
		m->fault.code = (uint32_t)code;
		m->fault.illval = illval;
		m->fault.action = (uint32_t)m->action;
		m->fault.offset = (int64_t)m->pc;
	}
	return 0;
}

/*
 * Loop-free copies between DTrace-owned regions of m: bpf_probe_read_kernel
 * reads any address, map memory included, so it is a memcpy whose size
 * the verifier bounds once. dst and n are clamped (dst <= DT_BPF_SCRATCH_SIZE
 * - DT_TMP_SIZE, n < DT_TMP_SIZE): callers have checked both already.
 */
DT_INLINE void dt_mcpy(struct dt_bpf_mem *m, u64 dst, const void *src, u64 n)
{
	bpf_probe_read_kernel(&m->scratch[DT_CLAMP(dst, DT_BPF_SCRATCH_SIZE - DT_TMP_SIZE)],
			      n & (DT_TMP_SIZE - 1), src);
}

/*
 * &m->scratch[off] with the address hidden from clang: clang-14 splits a
 * u64 access at a constant offset above 32 KiB (the BPF offset field's
 * range) into eight byte accesses; through this pointer it does not.
 */
#define DT_SP(m, off)                                                            \
	({                                                                       \
		uint8_t *p_ = (uint8_t *)(m) + DT_OFF(scratch) + (off);          \
		DT_OPAQUE(p_);                                                   \
		p_;                                                              \
	})
/* Byte i (masked) and 8-byte word at i & ~7 of a temporary. */
#define DT_TB(m, tmp, i) (DT_SP(m, tmp)[(i) & (DT_TMP_SIZE - 1)])
#define DT_TW(m, tmp, i) (*(u64 *)(DT_SP(m, tmp) + ((i) & (DT_TMP_SIZE - 8))))

/* The tagged address of m->scratch[off]. */
DT_INLINE u64 dt_scratch_addr(u64 off)
{
	return DT_BPF_TAG_SCRATCH | off;
}

#endif /* DT_LIB_IMPL_H */
