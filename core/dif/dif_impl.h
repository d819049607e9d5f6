/* SPDX-License-Identifier: MIT */
/*
 * dif_impl.h - what the interpreter's files share, and nothing else may use:
 * fault recording, the DTrace-owned memory checks, loads and stores through
 * the environment, scratch allocation (dif_emulate.c), and the subroutines
 * (dif_subr.c). Same freestanding rules as dif_compat.h. The dif_ prefix
 * keeps these global names apart from the kernel's in dtrace.ko.
 */
#ifndef DTRACE_DIF_IMPL_H
#define DTRACE_DIF_IMPL_H

#include "dif_dstate.h"
#include "dif_emulate.h"

/* dif_emulate.c: faults (the first one is kept), memory, scratch. */
void dif_fault(dif_ctx_t *c, uint16_t code, uint64_t illval);
uint8_t *dif_writable(const dif_ctx_t *c, uint64_t addr, uint64_t size);
const uint8_t *dif_owned(const dif_ctx_t *c, uint64_t addr, uint64_t size);
uint64_t dif_load(dif_ctx_t *c, uint64_t addr, uint32_t size, enum dif_space sp);
uint8_t dif_ld8(dif_ctx_t *c, uint64_t addr);
uint64_t dif_strlen(dif_ctx_t *c, uint64_t s, uint64_t max);
int dif_strncmp(dif_ctx_t *c, uint64_t s1, uint64_t s2, uint64_t limit);
char *dif_scratch_alloc(dif_ctx_t *c, uint64_t size);
uint64_t dif_ptr2addr(const void *p);

/* dif_subr.c: run subroutine subr on the tuple stack (DIF_OP_CALL). */
uint64_t dif_subr(dif_ctx_t *c, uint32_t subr, uint64_t strsize);

#endif /* DTRACE_DIF_IMPL_H */
