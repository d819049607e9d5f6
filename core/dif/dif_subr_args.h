/* SPDX-License-Identifier: MIT */
/*
 * dif_subr_args.h - the fewest tuple arguments each DIF subroutine takes:
 * a call with fewer faults ILLOP (illval: the subroutine), as illumos'
 * dtrace_dif_subr() does. One table for every engine: the interpreter
 * (dif_subr.c, in libdtrace and dtrace.ko) and the bpf engine's
 * translator (core/engine/bpf/codegen_subr.cc, C++). Freestanding, as
 * dif_compat.h.
 */
#ifndef DTRACE_DIF_SUBR_ARGS_H
#define DTRACE_DIF_SUBR_ARGS_H

#include "dif_compat.h"

static inline uint32_t dif_subr_min_args(uint32_t subr)
{
	switch (subr) {
	case DIF_SUBR_RAND:
	case DIF_SUBR_SPECULATION: return 0;
	case DIF_SUBR_STRCHR:
	case DIF_SUBR_STRRCHR:
	case DIF_SUBR_STRSTR:
	case DIF_SUBR_STRTOK:
	case DIF_SUBR_SUBSTR:
	case DIF_SUBR_INDEX:
	case DIF_SUBR_RINDEX:
	case DIF_SUBR_STRJOIN:
	case DIF_SUBR_JSON:
	case DIF_SUBR_COPYIN:
	case DIF_SUBR_INET_NTOP: return 2;
	case DIF_SUBR_BCOPY:
	case DIF_SUBR_COPYINTO:
	case DIF_SUBR_COPYOUT:
	case DIF_SUBR_COPYOUTSTR: return 3;
	default: return 1;
	}
}

#endif /* DTRACE_DIF_SUBR_ARGS_H */
