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
 * engine sees the DIFO.
 */
#include "dif_validate.h"

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

/* Scope of a variable instruction, or -1 if op is not one. */
static int var_scope(uint32_t op)
{
	switch (op) {
	case DIF_OP_LDGS:
	case DIF_OP_STGS:
	case DIF_OP_LDGAA:
	case DIF_OP_STGAA: return DIFV_SCOPE_GLOBAL;
	case DIF_OP_LDTS:
	case DIF_OP_STTS:
	case DIF_OP_LDTAA:
	case DIF_OP_STTAA: return DIFV_SCOPE_THREAD;
	case DIF_OP_LDLS:
	case DIF_OP_STLS: return DIFV_SCOPE_LOCAL;
	default: return -1;
	}
}

static const char *check_insn(const dif_difo_t *dp, const dif_limits_t *lim, uint32_t pc)
{
	dif_instr_t in = dp->text[pc];
	uint32_t op = DIF_INSTR_OP(in), nregs = lim->nregs;

	switch (op) {
	case DIF_OP_OR:
	case DIF_OP_XOR:
	case DIF_OP_AND:
	case DIF_OP_SLL:
	case DIF_OP_SRL:
	case DIF_OP_SRA:
	case DIF_OP_SUB:
	case DIF_OP_ADD:
	case DIF_OP_MUL:
	case DIF_OP_SDIV:
	case DIF_OP_UDIV:
	case DIF_OP_SREM:
	case DIF_OP_UREM:
	case DIF_OP_COPYS: return check_regs(in, F_R1 | F_R2 | F_RD, nregs);
	case DIF_OP_NOT:
	case DIF_OP_MOV:
	case DIF_OP_ALLOCS:
	case DIF_OP_LDSB:
	case DIF_OP_LDSH:
	case DIF_OP_LDSW:
	case DIF_OP_LDUB:
	case DIF_OP_LDUH:
	case DIF_OP_LDUW:
	case DIF_OP_LDX:
	case DIF_OP_ULDSB:
	case DIF_OP_ULDSH:
	case DIF_OP_ULDSW:
	case DIF_OP_ULDUB:
	case DIF_OP_ULDUH:
	case DIF_OP_ULDUW:
	case DIF_OP_ULDX:
	case DIF_OP_RLDSB:
	case DIF_OP_RLDSH:
	case DIF_OP_RLDSW:
	case DIF_OP_RLDUB:
	case DIF_OP_RLDUH:
	case DIF_OP_RLDUW:
	case DIF_OP_RLDX: return check_regs(in, F_R1 | F_Z2 | F_RD, nregs);
	case DIF_OP_CMP:
	case DIF_OP_SCMP: return check_regs(in, F_R1 | F_R2 | F_ZD, nregs);
	case DIF_OP_TST: return check_regs(in, F_R1 | F_Z2 | F_ZD, nregs);
	case DIF_OP_STB:
	case DIF_OP_STH:
	case DIF_OP_STW:
	case DIF_OP_STX: {
		/* rd holds the address: %r0 there is a store to address 0. */
		const char *e = check_regs(in, F_R1 | F_Z2 | F_RS, nregs);

		if (!e && DIF_INSTR_RD(in) == DIF_REG_R0)
			e = "cannot write to address 0";
		return e;
	}
	case DIF_OP_RET: return check_regs(in, F_Z1 | F_Z2 | F_RS, nregs);
	case DIF_OP_NOP:
	case DIF_OP_POPTS:
	case DIF_OP_FLUSHTS: return check_regs(in, F_Z1 | F_Z2 | F_ZD, nregs);
	case DIF_OP_BA:
	case DIF_OP_BE:
	case DIF_OP_BNE:
	case DIF_OP_BG:
	case DIF_OP_BGU:
	case DIF_OP_BGE:
	case DIF_OP_BGEU:
	case DIF_OP_BL:
	case DIF_OP_BLU:
	case DIF_OP_BLE:
	case DIF_OP_BLEU:
		if (DIF_INSTR_LABEL(in) >= dp->len)
			return "invalid branch target";
		if (DIF_INSTR_LABEL(in) <= pc)
			return "backward branch";
		return NULL;
	case DIF_OP_SETX:
		if (DIF_INSTR_INTEGER(in) >= dp->intlen)
			return "invalid integer reference";
		return check_regs(in, F_RD, nregs);
	case DIF_OP_SETS:
		if (DIF_INSTR_STRING(in) >= dp->strlen)
			return "invalid string reference";
		return check_regs(in, F_RD, nregs);
	case DIF_OP_LDGA:
	case DIF_OP_LDTA: {
		uint32_t v = DIF_INSTR_R1(in);
		const char *e = check_regs(in, F_R2 | F_RD, nregs);

		if (e)
			return e;
		if (v < DIF_VAR_ARRAY_UBASE) {
			if (op == DIF_OP_LDTA || v > DIF_VAR_UREGS)
				return "unknown variable";
			return NULL;
		}
		if (!var_declared(dp, v, op == DIF_OP_LDGA ? DIFV_SCOPE_GLOBAL : DIFV_SCOPE_THREAD))
			return "unknown variable";
		return NULL;
	}
	case DIF_OP_LDGS:
	case DIF_OP_LDTS:
	case DIF_OP_LDLS:
	case DIF_OP_LDGAA:
	case DIF_OP_LDTAA:
	case DIF_OP_STGS:
	case DIF_OP_STTS:
	case DIF_OP_STLS:
	case DIF_OP_STGAA:
	case DIF_OP_STTAA: {
		uint32_t v = DIF_INSTR_VAR(in);
		bool store = op == DIF_OP_STGS || op == DIF_OP_STTS || op == DIF_OP_STLS ||
			     op == DIF_OP_STGAA || op == DIF_OP_STTAA;
		const char *e = check_regs(in, store ? F_RS : F_RD, nregs);

		if (e)
			return e;
		if (v < DIF_VAR_OTHER_MIN)
			return "invalid variable";
		if (v < DIF_VAR_OTHER_UBASE) {
			if (store)
				return "cannot write to a built-in variable";
			if (op != DIF_OP_LDGS || v > DIF_VAR_BUILTIN_MAX)
				return "unknown variable";
			return NULL;
		}
		if (!var_declared(dp, v, (uint8_t)var_scope(op)))
			return "unknown variable";
		return NULL;
	}
	case DIF_OP_CALL:
		if (DIF_INSTR_SUBR(in) > DIF_SUBR_MAX)
			return "invalid subroutine";
		return check_regs(in, F_RD, nregs);
	case DIF_OP_PUSHTR:
	case DIF_OP_PUSHTV:
		if (DIF_INSTR_TYPE(in) != DIF_TYPE_CTF && DIF_INSTR_TYPE(in) != DIF_TYPE_STRING)
			return "invalid tuple type";
		return check_regs(in, F_R2 | F_RS, nregs);
	case DIF_OP_XLATE:
	case DIF_OP_XLARG: return "translator not resolved";
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
