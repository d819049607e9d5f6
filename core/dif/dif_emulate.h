/* SPDX-License-Identifier: MIT */
/*
 * dif_emulate.h - the DIF interpreter (illumos dtrace_dif_emulate).
 *
 * Runs one validated DIF object against a context (dif_env.h) and returns
 * 0 with ctx->rval set, or the DTRACEFLT_* code of the first fault with
 * ctx->fault_pc (byte offset) and ctx->illval set. Nothing after the
 * faulting instruction runs. Scratch allocations made before a fault stay
 * allocated; the caller resets scratch_used per probe firing.
 */
#ifndef DTRACE_DIF_EMULATE_H
#define DTRACE_DIF_EMULATE_H

#include "dif_env.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The strsize used when ctx->strsize is 0 (illumos' default). */
#define DIF_STRSIZE_DEFAULT 256

/*
 * Preconditions: dif_validate(ctx->difo) succeeded with nregs <= DIF_DIR_NREGS
 * (the interpreter relies on it: every branch lands on an instruction, the
 * last one is ret) and ctx->ops is set.
 */
int dif_emulate(dif_ctx_t *ctx);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_DIF_EMULATE_H */
