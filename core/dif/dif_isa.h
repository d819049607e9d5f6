/* SPDX-License-Identifier: MIT */
/*
 * dif_isa.h - the DIF instruction set as functions, made from the two
 * definition lists: dif_ops.def (opcode, name, operand form, variable
 * scope) and dif_subrs.def (subroutine, name, argument counts, prototype).
 *
 *   dif_ops.def ──┬─► dif_op_form/name/scope ─► dif_validate.c (operand checks)
 *                 │                           ├► core/program/disasm.cc (dtrace -S)
 *                 │                           └► core/engine/bpf (translator)
 *                 └─► enum dif_opcode ───────► dif_emulate.c (-Wswitch-enum:
 *                                               every opcode has its case)
 *   dif_subrs.def ─► dif_subr_name/min_args/max_args ─► dif_subr.c, disasm.cc,
 *                                                       bpf codegen_subr.cc
 *                 └► core/compiler/sema/builtins.cc (the D prototypes)
 *
 * The numbers are ABI and stay in uapi/dtrace/dif.h (installed, used by
 * out-of-tree builds, shared with illumos): this header checks at compile
 * time that each list entry carries its uapi number, that the opcodes are
 * exactly 1..DIF_OP_MAX and the subroutines exactly 0..DIF_SUBR_MAX.
 *
 * Freestanding C11 and C++ (dif_compat.h rules): included by dtrace.ko,
 * the freestanding VM, libdtrace and the tests. Functions are static
 * inline switches (the compiler makes tables of them): no storage, so no
 * question which object file defines a table.
 */
#ifndef DTRACE_DIF_ISA_H
#define DTRACE_DIF_ISA_H

#include "dif_compat.h"

/* Operand forms (dif_ops.def explains each); 0: not an opcode. */
enum dif_form {
	DIF_FORM_ILLEGAL = 0,
	DIF_FORM_R1_R2_RD,
	DIF_FORM_R1_RD,
	DIF_FORM_LOAD,
	DIF_FORM_STORE,
	DIF_FORM_R1_R2,
	DIF_FORM_R1,
	DIF_FORM_RS,
	DIF_FORM_NONE,
	DIF_FORM_BRANCH,
	DIF_FORM_INT_RD,
	DIF_FORM_STR_RD,
	DIF_FORM_AVAR_R2_RD,
	DIF_FORM_VAR_RD,
	DIF_FORM_RS_VAR,
	DIF_FORM_SUBR_RD,
	DIF_FORM_TYPE_R2_RS,
	DIF_FORM_TYPE_RS,
	DIF_FORM_XLREF_RD,
};

/* The SCOPE column: a DIFV_SCOPE_* value, or -1. */
#define DIF_ISA_SCOPE_NONE (-1)
#define DIF_ISA_SCOPE_GLOBAL DIFV_SCOPE_GLOBAL
#define DIF_ISA_SCOPE_THREAD DIFV_SCOPE_THREAD
#define DIF_ISA_SCOPE_LOCAL DIFV_SCOPE_LOCAL

/* The KIND column of dif_subrs.def. */
#define DIF_ISA_SUBR_SAFE 0
#define DIF_ISA_SUBR_DESTRUCTIVE 1

/*
 * Every opcode as an enumerator (same values as the uapi DIF_OP_*): a
 * switch over enum dif_opcode built with -Wswitch-enum names a missing one.
 * C++ gets a fixed underlying type, so that any opcode byte converts.
 */
#ifdef __cplusplus
enum dif_opcode : uint32_t {
#else
enum dif_opcode {
#endif
#define DIF_OP(NAME, name, num, form, scope) DIF_OPCODE_##NAME = (num),
#include "dif_ops.def"
#undef DIF_OP
};

/* How many entries each list has. */
enum {
	DIF_ISA_NOPS = 0
#define DIF_OP(NAME, name, num, form, scope) +1
#include "dif_ops.def"
#undef DIF_OP
	,
	DIF_ISA_NSUBRS = 0
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind) +1
#include "dif_subrs.def"
#undef DIF_SUBR
};

#ifdef __cplusplus
#define DIF_ISA_ASSERT(e, msg) static_assert(e, msg)
#else
#define DIF_ISA_ASSERT(e, msg) _Static_assert(e, msg)
#endif

/*
 * The lists against the ABI. With distinct numbers (a duplicate is a
 * duplicate case label below) in range, the counts make them complete.
 */
#define DIF_OP(NAME, name, num, form, scope)                                        \
	DIF_ISA_ASSERT((num) == DIF_OP_##NAME && (num) >= 1 && (num) <= DIF_OP_MAX, \
		       "dif_ops.def: " #NAME " is not uapi/dtrace/dif.h's DIF_OP_" #NAME);
#include "dif_ops.def"
#undef DIF_OP
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind)                            \
	DIF_ISA_ASSERT((num) == DIF_SUBR_##NAME && (num) <= DIF_SUBR_MAX && (min) <= (max), \
		       "dif_subrs.def: " #NAME " is not uapi/dtrace/dif.h's DIF_SUBR_" #NAME);
#include "dif_subrs.def"
#undef DIF_SUBR
DIF_ISA_ASSERT(DIF_ISA_NOPS == DIF_OP_MAX, "dif_ops.def lists every opcode 1..DIF_OP_MAX");
DIF_ISA_ASSERT(DIF_ISA_NSUBRS == DIF_SUBR_MAX + 1,
	       "dif_subrs.def lists every subroutine 0..DIF_SUBR_MAX");

/* The operand form of opcode op, DIF_FORM_ILLEGAL if op is none. */
static inline enum dif_form dif_op_form(uint32_t op)
{
	switch (op) {
#define DIF_OP(NAME, name, num, form, scope) \
	case (num):                          \
		return DIF_FORM_##form;
#include "dif_ops.def"
#undef DIF_OP
	default: return DIF_FORM_ILLEGAL;
	}
}

/* The mnemonic of opcode op ("add"), NULL if op is none. */
static inline const char *dif_op_name(uint32_t op)
{
	switch (op) {
#define DIF_OP(NAME, name, num, form, scope) \
	case (num):                          \
		return (name);
#include "dif_ops.def"
#undef DIF_OP
	default: return NULL;
	}
}

/* The DIFV_SCOPE_* a variable instruction names, -1 for any other opcode. */
static inline int dif_op_scope(uint32_t op)
{
	switch (op) {
#define DIF_OP(NAME, name, num, form, scope) \
	case (num):                          \
		return DIF_ISA_SCOPE_##scope;
#include "dif_ops.def"
#undef DIF_OP
	default: return DIF_ISA_SCOPE_NONE;
	}
}

/* The D name of subroutine subr ("strlen"), NULL if subr is none. */
static inline const char *dif_subr_name(uint32_t subr)
{
	switch (subr) {
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind) \
	case (num):                                              \
		return (name);
#include "dif_subrs.def"
#undef DIF_SUBR
	default: return NULL;
	}
}

/*
 * The fewest tuple arguments subroutine subr takes: a call with fewer
 * faults ILLOP (illval: the subroutine), as illumos' dtrace_dif_subr().
 * 0 for a number that is no subroutine (the call faults ILLOP anyway).
 */
static inline uint32_t dif_subr_min_args(uint32_t subr)
{
	switch (subr) {
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind) \
	case (num):                                              \
		return (min);
#include "dif_subrs.def"
#undef DIF_SUBR
	default: return 0;
	}
}

/* The most arguments subroutine subr takes (its parameters), 0 if none. */
static inline uint32_t dif_subr_max_args(uint32_t subr)
{
	switch (subr) {
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind) \
	case (num):                                              \
		return (max);
#include "dif_subrs.def"
#undef DIF_SUBR
	default: return 0;
	}
}

#endif /* DTRACE_DIF_ISA_H */
