// SPDX-License-Identifier: MIT
/*
 * dif_validate.c - the DIF object validator (illumos dtrace_difo_validate).
 *
 * Freestanding C11 shared with dtrace.ko (see dif_compat.h). One pass:
 *
 *   tables ─► each instruction, in order ─► last instruction is ret
 *   (sizes,    (opcode, reserved bits, registers, %r0, branch targets,
 *    vartab,    int/string refs, variable ids and scopes, subroutines)
 *    strtab)
 *
 * The first error wins: its byte offset (pc * 4, or DIF_VERR_NOPC for the
 * tables) and a static reason string are returned. Stricter than illumos
 * in two ways: a user variable must be listed in the variable table with the
 * scope the instruction uses, and a built-in variable id must be known.
 * xlate/xlarg are rejected: the library resolves translators before an
 * engine sees the DIFO. What each opcode's operands are comes from
 * dif_ops.def (dif_isa.h): the checks below are per operand form.
 */
#include "dif_validate.h"
#include "dif_isa.h"

#define DIF_VERR_NOPC 0xffffffffu

static int verr(dif_verr_t *err, uint32_t pc, const char *reason)
{
	if (err) {
		err->offset = pc == DIF_VERR_NOPC ? pc : pc * 4;
		err->reason = reason;
	}
	return -1;
}

/* Is user variable id declared in the variable table with this scope? */
static bool var_declared(const dif_difo_t *dp, uint32_t id, uint8_t scope)
{
	for (uint32_t i = 0; i < dp->varlen; i++)
		if (dp->vartab[i].dtdv_id == id && dp->vartab[i].dtdv_scope == scope)
			return true;
	return false;
}

static const char *check_tables(const dif_difo_t *dp, const dif_limits_t *lim)
{
	if (lim->nregs == 0 || lim->nregs > DIF_DIR_NREGS || lim->ntregs > DIF_DTR_NREGS)
		return "invalid register count";
	if (dp->len == 0 || !dp->text)
		return "empty DIF object";
	if (dp->len > lim->max_len || dp->intlen > lim->max_intlen ||
	    dp->strlen > lim->max_strlen || dp->varlen > lim->max_varlen ||
	    dp->intlen > DIF_INTOFF_MAX + 1)
		return "DIF object too large";
	if ((dp->intlen && !dp->inttab) || (dp->strlen && !dp->strtab) ||
	    (dp->varlen && !dp->vartab))
		return "missing table";
	/* String loads stay inside the table only if its last string ends. */
	if (dp->strlen && dp->strtab[dp->strlen - 1] != '\0')
		return "unterminated string table";
	for (uint32_t i = 0; i < dp->varlen; i++) {
		const dtrace_difv_t *v = &dp->vartab[i];

		if (v->dtdv_scope > DIFV_SCOPE_LOCAL || v->dtdv_kind > DIFV_KIND_SCALAR)
			return "invalid variable table entry";
		if (v->dtdv_id < DIF_VAR_OTHER_UBASE &&
		    (v->dtdv_id < DIF_VAR_ARRAY_UBASE || v->dtdv_id > DIF_VAR_ARRAY_MAX))
			return "invalid variable table entry";
		if (v->dtdv_id > DIF_VAR_OTHER_MAX)
			return "invalid variable table entry";
		if (v->dtdv_type.dtdt_kind > DIF_TYPE_STRING)
			return "invalid variable table entry";
	}
	return NULL;
}

/* Register-format instructions: which fields are registers, which must be 0. */
enum {
	F_R1 = 1,  /* r1 is a source register */
	F_R2 = 2,  /* r2 is a source register */
	F_RD = 4,  /* rd is a destination register (not %r0) */
	F_RS = 8,  /* rd field is a source register (ret, stores' address) */
	F_Z1 = 16, /* r1 must be 0 */
	F_Z2 = 32, /* r2 must be 0 */
	F_ZD = 64, /* rd must be 0 */
};

static const char *check_regs(dif_instr_t in, unsigned f, uint32_t nregs)
{
	uint32_t r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in), rd = DIF_INSTR_RD(in);

	if (((f & F_Z1) && r1) || ((f & F_Z2) && r2) || ((f & F_ZD) && rd))
		return "non-zero reserved bits";
	if (((f & F_R1) && r1 >= nregs) || ((f & F_R2) && r2 >= nregs) ||
	    ((f & (F_RD | F_RS)) && rd >= nregs))
		return "invalid register";
	if ((f & F_RD) && rd == DIF_REG_R0)
		return "cannot write to %r0";
	return NULL;
}

/*
 * One instruction, by its operand form (dif_ops.def): which fields are
 * registers, which must be zero, which index a table or the variable
 * space.
 */
static const char *check_insn(const dif_difo_t *dp, const dif_limits_t *lim, uint32_t pc)
{
	dif_instr_t in = dp->text[pc];
	uint32_t op = DIF_INSTR_OP(in), nregs = lim->nregs;

	switch (dif_op_form(op)) {
	case DIF_FORM_R1_R2_RD: return check_regs(in, F_R1 | F_R2 | F_RD, nregs);
	case DIF_FORM_R1_RD:
	case DIF_FORM_LOAD: return check_regs(in, F_R1 | F_Z2 | F_RD, nregs);
	case DIF_FORM_R1_R2: return check_regs(in, F_R1 | F_R2 | F_ZD, nregs);
	case DIF_FORM_R1: return check_regs(in, F_R1 | F_Z2 | F_ZD, nregs);
	case DIF_FORM_STORE: {
		/* rd holds the address: %r0 there is a store to address 0. */
		const char *e = check_regs(in, F_R1 | F_Z2 | F_RS, nregs);

		if (!e && DIF_INSTR_RD(in) == DIF_REG_R0)
			e = "cannot write to address 0";
		return e;
	}
	case DIF_FORM_RS: return check_regs(in, F_Z1 | F_Z2 | F_RS, nregs);
	case DIF_FORM_NONE: return check_regs(in, F_Z1 | F_Z2 | F_ZD, nregs);
	case DIF_FORM_BRANCH:
		if (DIF_INSTR_LABEL(in) >= dp->len)
			return "invalid branch target";
		if (DIF_INSTR_LABEL(in) <= pc)
			return "backward branch";
		return NULL;
	case DIF_FORM_INT_RD:
		if (DIF_INSTR_INTEGER(in) >= dp->intlen)
			return "invalid integer reference";
		return check_regs(in, F_RD, nregs);
	case DIF_FORM_STR_RD:
		if (DIF_INSTR_STRING(in) >= dp->strlen)
			return "invalid string reference";
		return check_regs(in, F_RD, nregs);
	case DIF_FORM_AVAR_R2_RD: {
		uint32_t v = DIF_INSTR_R1(in);
		const char *e = check_regs(in, F_R2 | F_RD, nregs);

		if (e)
			return e;
		/* Built-in arrays (args, regs, uregs) are global only. */
		if (v < DIF_VAR_ARRAY_UBASE) {
			if (dif_op_scope(op) != DIFV_SCOPE_GLOBAL || v > DIF_VAR_UREGS)
				return "unknown variable";
			return NULL;
		}
		if (!var_declared(dp, v, (uint8_t)dif_op_scope(op)))
			return "unknown variable";
		return NULL;
	}
	case DIF_FORM_VAR_RD:
	case DIF_FORM_RS_VAR: {
		uint32_t v = DIF_INSTR_VAR(in);
		bool store = dif_op_form(op) == DIF_FORM_RS_VAR;
		const char *e = check_regs(in, store ? F_RS : F_RD, nregs);

		if (e)
			return e;
		if (v < DIF_VAR_OTHER_MIN)
			return "invalid variable";
		if (v < DIF_VAR_OTHER_UBASE) {
			if (store)
				return "cannot write to a built-in variable";
			/* Built-in scalars are read by ldgs only. */
			if (op != DIF_OP_LDGS || v > DIF_VAR_BUILTIN_MAX)
				return "unknown variable";
			return NULL;
		}
		if (!var_declared(dp, v, (uint8_t)dif_op_scope(op)))
			return "unknown variable";
		return NULL;
	}
	case DIF_FORM_SUBR_RD:
		if (DIF_INSTR_SUBR(in) > DIF_SUBR_MAX)
			return "invalid subroutine";
		return check_regs(in, F_RD, nregs);
	case DIF_FORM_TYPE_R2_RS:
	case DIF_FORM_TYPE_RS:
		if (DIF_INSTR_TYPE(in) != DIF_TYPE_CTF && DIF_INSTR_TYPE(in) != DIF_TYPE_STRING)
			return "invalid tuple type";
		return check_regs(in, F_R2 | F_RS, nregs);
	case DIF_FORM_XLREF_RD: return "translator not resolved";
	case DIF_FORM_ILLEGAL:
	default: return "invalid opcode";
	}
}

int dif_validate(const dif_difo_t *dp, const dif_limits_t *lim, dif_verr_t *err)
{
	const char *e;

	if (!dp || !lim)
		return verr(err, DIF_VERR_NOPC, "missing DIF object or limits");
	e = check_tables(dp, lim);
	if (e)
		return verr(err, DIF_VERR_NOPC, e);
	for (uint32_t pc = 0; pc < dp->len; pc++) {
		e = check_insn(dp, lim, pc);
		if (e)
			return verr(err, pc, e);
	}
	if (DIF_INSTR_OP(dp->text[dp->len - 1]) != DIF_OP_RET)
		return verr(err, dp->len - 1, "expected ret as last instruction");
	return 0;
}
