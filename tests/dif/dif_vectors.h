/* SPDX-License-Identifier: MIT */
/*
 * dif_vectors.h - DIF test vectors: programs and what running them must give.
 *
 * Plain data plus a freestanding runner, so that the same table can be
 * replayed anywhere the VM runs (GoogleTest here; a kernel self-test ioctl
 * later, prior-art §5.4). Each row is a DIF object built with the
 * uapi/dtrace/dif.h builder macros and one expectation:
 *
 *   DV_OK      validates; runs to ret with rval (or, with rstr, rval is the
 *              address of that string)
 *   DV_FAULT   validates; stops with fault, fault_pc (bytes) and illval
 *   DV_REJECT  dif_validate() fails at offset (bytes) with reason
 *
 * The environment is a sandbox (dv_env_ops): a DV_ARENA_SIZE-byte kernel
 * arena at DV_KBASE and a user arena at DV_UBASE, every other address
 * faults with BADADDR; built-in variables and arguments have the fixed
 * values below. copyout() writes into dv_mem_t.uout (user addresses
 * DV_OBASE ...), speculation() gives DV_SPEC, progenyof(p) is true for
 * DV_PID and 1. Variables: DV_NGLOBALS globals and DV_NLOCALS locals, each
 * by value or (string / DIF_TF_BYREF in the vartab) by reference with a
 * strsize buffer; a dynamic-variable store of dynvarsize bytes (chunks
 * for 4 keys of strsize bytes and a strsize value) with thread key DV_TID.
 * All memory is the caller's dv_mem_t, so a kernel runner need not put
 * it on the stack.
 */
#ifndef DTRACE_TESTS_DIF_VECTORS_H
#define DTRACE_TESTS_DIF_VECTORS_H

#include <dif_env.h>
#include <dif_validate.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DV_KBASE	0x10000u	/* kernel arena (ld*, rld*) */
#define DV_UBASE	0x20000u	/* user arena (uld*, copyinstr) */
#define DV_ARENA_SIZE	256u

/* Sandbox built-ins: anything not listed faults with ILLOP. */
#define DV_PID		4242
#define DV_TID		4243
#define DV_TIMESTAMP	123456789
#define DV_EXECNAME	(DV_KBASE + 0x60)	/* "dtrace-test" */
#define DV_ARG(n)	(100 + (n))		/* args[0..9]; others ILLOP */

#define DV_MAXTEXT	32
#define DV_MAXINT	6
#define DV_MAXVAR	3
#define DV_NGLOBALS	4
#define DV_NLOCALS	4
#define DV_SCRATCH_MAX	4096	/* scratch a runner must provide */
#define DV_OBASE	0x30000u	/* copyout() target (dv_mem_t.uout) */
#define DV_OUT_SIZE	64u
#define DV_SPEC		3		/* what speculation() returns */
#define DV_DYNVAR_MAX	8192	/* default and largest dynvarsize */
#define DV_VARMEM_SIZE	((DV_NGLOBALS + DV_NLOCALS) * (DIF_VARBUF_HDR + 512))

enum dv_kind { DV_OK, DV_FAULT, DV_REJECT };

typedef struct dif_vector {
	const char *name;		/* [A-Za-z0-9_]+ */
	dif_instr_t text[DV_MAXTEXT];
	uint32_t len;
	uint64_t inttab[DV_MAXINT];
	uint32_t intlen;
	const char *strtab;
	uint32_t strlen;
	dtrace_difv_t vartab[DV_MAXVAR];
	uint32_t varlen;
	uint32_t strsize;		/* 0: DIF_STRSIZE_DEFAULT */
	uint32_t scratch;		/* 0: DV_SCRATCH_MAX */
	uint8_t kernel_priv;

	enum dv_kind kind;
	uint64_t rval;
	const char *rstr;
	uint16_t fault;
	uint32_t fault_pc;
	uint64_t illval;
	uint8_t any_illval;		/* illval is a host pointer: not compared */
	uint32_t offset;
	const char *reason;
	uint8_t check_g0;		/* compare global 0x500 after the run */
	uint64_t g0;
	uint32_t dynvarsize;		/* 0: DV_DYNVAR_MAX */
	uint8_t check_drops;		/* compare the store's drop count */
	uint64_t drops;
} dif_vector_t;

/* Everything a run writes: the caller's, zeroed or not. */
typedef struct dv_mem {
	char scratch[DV_SCRATCH_MAX];
	uint64_t dynvars[DV_DYNVAR_MAX / 8];
	uint64_t varmem[DV_VARMEM_SIZE / 8];
	uint8_t uout[DV_OUT_SIZE];
	dif_varbuf_t grefs[DV_NGLOBALS];
	dif_varbuf_t lrefs[DV_NLOCALS];
	dif_dstate_t dstate;
} dv_mem_t;

typedef struct dv_result {
	int rejected;
	dif_verr_t verr;
	int fault;
	uint32_t fault_pc;
	uint64_t illval;
	uint64_t rval;
	uint64_t g0;
	uint64_t drops;
	uint32_t dynvars_used;		/* entries in the store after the run */
} dv_result_t;

extern const dif_vector_t dif_vectors[];
extern const uint32_t dif_nvectors;
extern const uint8_t dv_karena[DV_ARENA_SIZE];
extern const uint8_t dv_uarena[DV_ARENA_SIZE];
extern const dif_env_ops_t dv_env_ops;

/* Validate and run v in the sandbox with m's memory. */
void dv_run(const dif_vector_t *v, dv_mem_t *m, dv_result_t *r);

/* Set up c (and m) as dv_run() does, for tests that run programs themselves. */
void dv_setup(dif_ctx_t *c, const dif_difo_t *dp, dv_mem_t *m, uint64_t strsize,
	      uint64_t dynvarsize);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_TESTS_DIF_VECTORS_H */
