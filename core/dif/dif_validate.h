/* SPDX-License-Identifier: MIT */
/*
 * dif_validate.h - check a DIF object before any engine accepts it.
 *
 * Modelled on illumos dtrace_difo_validate(): every engine, the kernel
 * included, validates every DIFO it is given (the kernel never trusts
 * userspace). A valid DIFO is safe to hand to dif_emulate(): registers are
 * in range, %r0 is never written, table references are in bounds, every
 * branch goes forward to an existing instruction (so the program ends
 * within len steps), variables and subroutines are known and the last
 * instruction is ret.
 */
#ifndef DTRACE_DIF_VALIDATE_H
#define DTRACE_DIF_VALIDATE_H

#include "dif_env.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What this engine accepts (illumos: DTRACEIOC_CONF and the dif_* tunables). */
typedef struct dif_limits {
	uint32_t nregs;	     /* integer registers, <= DIF_DIR_NREGS */
	uint32_t ntregs;     /* tuple registers, <= DIF_DTR_NREGS */
	uint32_t max_len;    /* instructions per DIFO */
	uint32_t max_intlen; /* integer table entries */
	uint32_t max_strlen; /* string table bytes */
	uint32_t max_varlen; /* variable table entries */
} dif_limits_t;

/* Defaults: the full register file and illumos-like table bounds. */
#define DIF_LIMITS_DEFAULT                                                                      \
	{                                                                                       \
		DIF_DIR_NREGS, DIF_DTR_NREGS, 256 * 1024, DIF_INTOFF_MAX + 1, 1024 * 1024, 4096 \
	}

/* The first error found. */
typedef struct dif_verr {
	uint32_t offset;    /* byte offset of the offending instruction (pc * 4) */
	const char *reason; /* static string, e.g. "invalid register" */
} dif_verr_t;

/* Returns 0 if difo is valid, else -1 with *err describing the first error. */
int dif_validate(const dif_difo_t *difo, const dif_limits_t *limits, dif_verr_t *err);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_DIF_VALIDATE_H */
