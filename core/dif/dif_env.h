/* SPDX-License-Identifier: MIT */
/*
 * dif_env.h - what the DIF VM needs from the place it runs in.
 *
 * The VM touches nothing outside itself except through this interface, so
 * that the same source runs in dtrace.ko, in the user engine and in tests:
 *
 *        dif_emulate(ctx)
 *            │  registers, tuple stack, scratch, variable storage: ctx
 *            │  DTrace-owned memory (string table, scratch): read directly
 *            ▼
 *        ctx->ops ──► load()      kernel: copy_from_kernel_nofault /
 *                                         copy_from_user_nofault
 *                                 user engine: own memory / process_vm_readv
 *                                 tests: a sandbox arena
 *                     copystr()   bounded string copy (copyinstr)
 *                     builtin()   pid, tid, execname, timestamp, probe*, ...
 *                     getarg()    args[n], arg0-arg9
 *
 * Ownership: the caller owns the context and everything it points to
 * (the DIFO, scratch, variable storage); the VM keeps no pointer after
 * dif_emulate() returns. Addresses are 64-bit integers in the traced
 * address space; DTrace-owned memory is addressed by its host pointer.
 *
 * Faults: an ops function that cannot do its job sets *fault to a
 * DTRACEFLT_* code (normally DTRACEFLT_BADADDR) and returns 0; the VM then
 * records the code, the illegal value and the PC and stops.
 */
#ifndef DTRACE_DIF_ENV_H
#define DTRACE_DIF_ENV_H

#include "dif_compat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Address spaces a load can target. */
enum dif_space {
	DIF_SPACE_KERNEL = 0, /* ld*, rld* (with kernel privilege) */
	DIF_SPACE_USER = 1,   /* uld*, copyinstr() */
};

/* A DIF object as the VM sees it (DIFOs never cross user/kernel as structs). */
typedef struct dif_difo {
	const dif_instr_t *text;     /* instructions */
	uint32_t len;		     /* number of instructions */
	uint32_t intlen;	     /* entries in inttab */
	const uint64_t *inttab;	     /* integer table (setx) */
	const char *strtab;	     /* string table (sets), NUL-separated */
	uint32_t strlen;	     /* bytes in strtab */
	uint32_t varlen;	     /* entries in vartab */
	const dtrace_difv_t *vartab; /* variables referenced */
	dtrace_diftype_t rtype;	     /* return type */
} dif_difo_t;

typedef struct dif_env_ops {
	/* Read size (1, 2, 4 or 8) bytes at addr in space, native endianness. */
	uint64_t (*load)(void *env, uint64_t addr, uint32_t size, enum dif_space space,
			 uint16_t *fault);
	/*
	 * Copy the string at addr into dst, at most max bytes including the
	 * terminating NUL, which is always written (max >= 1). Returns the
	 * length copied, NUL excluded.
	 */
	uint64_t (*copystr)(void *env, uint64_t addr, char *dst, uint64_t max, enum dif_space space,
			    uint16_t *fault);
	/*
	 * Value of the built-in variable id (DIF_VAR_*; for the built-in
	 * arrays regs/uregs, ndx is the index). String variables (execname,
	 * probename, ...) return an address the env's load() can read.
	 * Unknown or unavailable: *fault = DTRACEFLT_ILLOP.
	 */
	uint64_t (*builtin)(void *env, uint32_t id, uint64_t ndx, uint16_t *fault);
	/* Probe argument n (args[n], argN). */
	uint64_t (*getarg)(void *env, uint64_t n, uint16_t *fault);
} dif_env_ops_t;

/* One tuple register: a subroutine argument or an associative-array key. */
typedef struct dif_tuple {
	uint64_t value; /* the value, or the address of a by-ref value */
	uint64_t size;	/* 0 for by-value; bytes for by-ref */
} dif_tuple_t;

typedef struct dif_ctx {
	/* Set by the caller. */
	const dif_env_ops_t *ops;
	void *env;		/* passed to every ops function */
	const dif_difo_t *difo; /* the program; must have passed dif_validate() */
	char *scratch;		/* per-probe scratch: base ... */
	uint64_t scratch_size;	/* ... size in bytes ... */
	uint64_t scratch_used;	/* ... bytes in use (reset per probe firing) */
	uint64_t *globals;	/* scalar globals: id - DIF_VAR_OTHER_UBASE */
	uint32_t nglobals;
	uint32_t nlocals;
	uint64_t *locals; /* clause-locals (this->): id - DIF_VAR_OTHER_UBASE */
	uint64_t strsize; /* the strsize option: string bound incl. NUL */
	bool kernel_priv; /* may rld* read arbitrary kernel memory */

	/* Set by dif_emulate(). */
	uint64_t regs[DIF_DIR_NREGS];
	dif_tuple_t tupregs[DIF_DTR_NREGS];
	uint32_t ttop;	   /* tuple stack depth */
	uint16_t fault;	   /* DTRACEFLT_* or 0 */
	uint32_t fault_pc; /* byte offset (pc * 4) of the faulting insn */
	uint64_t illval;   /* the illegal value (address, var id, ...) */
	uint64_t rval;	   /* the value of ret */
} dif_ctx_t;

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_DIF_ENV_H */
