// SPDX-License-Identifier: MIT
/*
 * dif_vectors.c - the DIF test table (see dif_vectors.h) and its sandbox.
 *
 * Freestanding like the VM itself, so a kernel self-test can compile this
 * file unchanged. Rows are grouped by what they cover:
 *   ALU, division faults   compare/branch   loads (ld, uld, rld) and their
 *   faults   stores, allocs, copys   variables   tuple stack   subroutines
 *   validator rejections   "a faulting program stops".
 * Values assume a little-endian machine (x86-64, arm64).
 */
#include "dif_vectors.h"

#include <dif_emulate.h>

const uint8_t dv_karena[DV_ARENA_SIZE] = {
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0xff, 0xfe, 0xfd, 0xfc, 0x80, 0x00, 0x00, 0x00,
	0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x2c, 0x20, 0x77, 0x6f, 0x72, 0x6c, 0x64, 0x00, 0x00, 0x00, 0x00,
	0x2f, 0x75, 0x73, 0x72, 0x2f, 0x6c, 0x69, 0x62, 0x2f, 0x6c, 0x69, 0x62, 0x63, 0x2e, 0x73, 0x6f,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x57, 0x6f, 0x72, 0x6c, 0x64, 0x20, 0x31, 0x32, 0x33, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x64, 0x74, 0x72, 0x61, 0x63, 0x65, 0x2d, 0x74, 0x65, 0x73, 0x74, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xc0, 0xa8, 0x01, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x14, 0x4f, 0xff, 0xfe, 0x0b, 0x76, 0xc8,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x0a, 0x00, 0x00, 0x01,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x61, 0x62, 0x63,
};

const uint8_t dv_uarena[DV_ARENA_SIZE] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x75, 0x73, 0x65, 0x72, 0x20, 0x73, 0x74, 0x72, 0x69, 0x6e, 0x67, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 0x20: an argument area, "ls\0-l\0/tmp\0" (copyinargs) */
	0x6c, 0x73, 0x00, 0x2d, 0x6c, 0x00, 0x2f, 0x74, 0x6d, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* --- the sandbox environment --------------------------------------------- */

static const uint8_t *dv_map(uint64_t addr, uint64_t size, enum dif_space sp)
{
	uint64_t base = sp == DIF_SPACE_USER ? DV_UBASE : DV_KBASE;
	const uint8_t *arena = sp == DIF_SPACE_USER ? dv_uarena : dv_karena;

	if (addr < base || size > DV_ARENA_SIZE || addr - base > DV_ARENA_SIZE - size)
		return NULL;
	return arena + (addr - base);
}

static uint64_t dv_load(void *env, uint64_t addr, uint32_t size, enum dif_space sp,
			uint16_t *fault)
{
	const uint8_t *p = dv_map(addr, size, sp);
	uint64_t v = 0;

	(void)env;
	if (!p) {
		*fault = DTRACEFLT_BADADDR;
		return 0;
	}
	for (uint32_t i = 0; i < size; i++) /* little-endian */
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint64_t dv_copystr(void *env, uint64_t addr, char *dst, uint64_t max,
			   enum dif_space sp, uint16_t *fault)
{
	uint64_t n = 0;

	(void)env;
	for (; n + 1 < max; n++) {
		const uint8_t *p = dv_map(addr + n, 1, sp);

		if (!p) {
			*fault = DTRACEFLT_BADADDR;
			dst[n] = '\0';
			return n;
		}
		if ((dst[n] = (char)*p) == '\0')
			return n;
	}
	dst[n] = '\0';
	return n;
}

static uint64_t dv_builtin(void *env, uint32_t id, uint64_t ndx, uint16_t *fault)
{
	(void)env;
	(void)ndx;
	switch (id) {
	case DIF_VAR_PID:
		return DV_PID;
	case DIF_VAR_TID:
		return DV_TID;
	case DIF_VAR_TIMESTAMP:
		return DV_TIMESTAMP;
	case DIF_VAR_EXECNAME:
		return DV_EXECNAME;
	default:
		*fault = DTRACEFLT_ILLOP;
		return 0;
	}
}

static uint64_t dv_getarg(void *env, uint64_t n, uint16_t *fault)
{
	(void)env;
	if (n > 9) {
		*fault = DTRACEFLT_ILLOP;
		return 0;
	}
	return DV_ARG(n);
}

static void dv_copyout(void *env, const void *src, uint64_t uaddr, uint64_t size,
		       uint16_t *fault)
{
	dv_mem_t *m = (dv_mem_t *)env;
	const uint8_t *p = (const uint8_t *)src;

	if (uaddr < DV_OBASE || size > DV_OUT_SIZE || uaddr - DV_OBASE > DV_OUT_SIZE - size) {
		*fault = DTRACEFLT_BADADDR;
		return;
	}
	for (uint64_t i = 0; i < size; i++)
		m->uout[uaddr - DV_OBASE + i] = p[i];
}

static uint64_t dv_speculation(void *env)
{
	(void)env;
	return DV_SPEC;
}

static uint64_t dv_progenyof(void *env, uint64_t pid)
{
	(void)env;
	return pid == DV_PID || pid == 1;
}

const dif_env_ops_t dv_env_ops = {
	.load = dv_load,
	.copystr = dv_copystr,
	.builtin = dv_builtin,
	.getarg = dv_getarg,
	.copyout = dv_copyout,
	.speculation = dv_speculation,
	.progenyof = dv_progenyof,
};

void dv_setup(dif_ctx_t *c, const dif_difo_t *dp, dv_mem_t *m, uint64_t strsize,
	      uint64_t dynvarsize)
{
	uint64_t ss = strsize ? strsize : DIF_STRSIZE_DEFAULT, bufsize = ss > 512 ? 512 : ss;
	uint8_t *vm = (uint8_t *)m->varmem;

	for (uint32_t i = 0; i < DV_VARMEM_SIZE; i++)
		vm[i] = 0;
	for (uint32_t i = 0; i < DV_NGLOBALS + DV_NLOCALS; i++) {
		dif_varbuf_t *b = i < DV_NGLOBALS ? &m->grefs[i] : &m->lrefs[i - DV_NGLOBALS];

		b->data = vm + i * (DIF_VARBUF_HDR + 512);
		b->size = bufsize;
	}
	if (!dynvarsize || dynvarsize > DV_DYNVAR_MAX)
		dynvarsize = DV_DYNVAR_MAX;
	(void)dif_dstate_init(&m->dstate, m->dynvars, dynvarsize,
			      DIF_DSTATE_CHUNKSIZE(DIF_DTR_NREGS + 2, 2 * ss, ss));
	*c = (dif_ctx_t){
		.ops = &dv_env_ops,
		.env = m,
		.difo = dp,
		.scratch = m->scratch,
		.scratch_size = DV_SCRATCH_MAX,
		.strsize = strsize,
		.grefs = m->grefs,
		.lrefs = m->lrefs,
		.varmem = vm,
		.varmem_size = DV_VARMEM_SIZE,
		.dstate = &m->dstate,
		.thread_key = DV_TID,
	};
}

void dv_run(const dif_vector_t *v, dv_mem_t *m, dv_result_t *r)
{
	static const dif_limits_t limits = DIF_LIMITS_DEFAULT;
	uint64_t globals[DV_NGLOBALS] = { 0 }, locals[DV_NLOCALS] = { 0 };
	dif_difo_t dp = {
		.text = v->text,
		.len = v->len,
		.intlen = v->intlen,
		.inttab = v->inttab,
		.strtab = v->strtab,
		.strlen = v->strlen,
		.varlen = v->varlen,
		.vartab = v->vartab,
	};
	dif_ctx_t c;

	dv_setup(&c, &dp, m, v->strsize, v->dynvarsize);
	c.scratch_size = v->scratch ? v->scratch : DV_SCRATCH_MAX;
	c.globals = globals;
	c.nglobals = DV_NGLOBALS;
	c.locals = locals;
	c.nlocals = DV_NLOCALS;
	c.kernel_priv = v->kernel_priv;

	r->rejected = dif_validate(&dp, &limits, &r->verr) != 0;
	r->fault = 0;
	r->fault_pc = 0;
	r->illval = 0;
	r->rval = 0;
	r->g0 = 0;
	r->drops = 0;
	r->dynvars_used = 0;
	if (r->rejected)
		return;
	r->fault = dif_emulate(&c);
	r->fault_pc = c.fault_pc;
	r->illval = c.illval;
	r->rval = c.rval;
	r->g0 = globals[0];
	r->drops = m->dstate.drops;
	r->dynvars_used = m->dstate.nused;
}

/* --- row builders ---------------------------------------------------------- */

#define R3(op, a, b, d)	DIF_INSTR_FMT(DIF_OP_##op, a, b, d)
#define SETX(i, d)	DIF_INSTR_SETX(i, d)
#define SETS(s, d)	DIF_INSTR_SETS(s, d)
#define RET(d)		DIF_INSTR_RET(d)
#define NOP		DIF_INSTR_NOP
#define LD(op, a, d)	DIF_INSTR_LOAD(DIF_OP_##op, a, d)
#define ST(op, s, a)	DIF_INSTR_STORE(DIF_OP_##op, s, a)
#define BR(op, l)	DIF_INSTR_BRANCH(DIF_OP_##op, l)
#define CMP(a, b)	DIF_INSTR_CMP(DIF_OP_CMP, a, b)
#define SCMP(a, b)	DIF_INSTR_CMP(DIF_OP_SCMP, a, b)
#define LDV(op, v, d)	DIF_INSTR_LDV(DIF_OP_##op, v, d)
#define STV(op, v, s)	DIF_INSTR_STV(DIF_OP_##op, v, s)
#define PUSHS(r)	DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 0, r)
#define PUSHV(r)	DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, r)
#define CALL(s, d)	DIF_INSTR_CALL(DIF_SUBR_##s, d)

#define TEXT(...) .text = { __VA_ARGS__ }, \
	.len = sizeof((dif_instr_t[]){ __VA_ARGS__ }) / sizeof(dif_instr_t)
#define INTS(...) .inttab = { __VA_ARGS__ }, \
	.intlen = sizeof((uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t)
#define STRS(s) .strtab = s, .strlen = sizeof(s)
#define VARS(...) .vartab = { __VA_ARGS__ }, \
	.varlen = sizeof((dtrace_difv_t[]){ __VA_ARGS__ }) / sizeof(dtrace_difv_t)
#define VAR(id, kind, scope, tkind) { .dtdv_id = (id), .dtdv_kind = (kind), \
	.dtdv_scope = (scope), .dtdv_type = { .dtdt_kind = (tkind), .dtdt_size = 8 } }
#define GVAR(id) VAR(id, DIFV_KIND_SCALAR, DIFV_SCOPE_GLOBAL, DIF_TYPE_CTF)
#define LVAR(id) VAR(id, DIFV_KIND_SCALAR, DIFV_SCOPE_LOCAL, DIF_TYPE_CTF)
#define TVAR(id) VAR(id, DIFV_KIND_SCALAR, DIFV_SCOPE_THREAD, DIF_TYPE_CTF)
#define GSVAR(id) VAR(id, DIFV_KIND_SCALAR, DIFV_SCOPE_GLOBAL, DIF_TYPE_STRING)
#define LSVAR(id) VAR(id, DIFV_KIND_SCALAR, DIFV_SCOPE_LOCAL, DIF_TYPE_STRING)
#define TSVAR(id) VAR(id, DIFV_KIND_SCALAR, DIFV_SCOPE_THREAD, DIF_TYPE_STRING)
#define GAVAR(id) VAR(id, DIFV_KIND_ARRAY, DIFV_SCOPE_GLOBAL, DIF_TYPE_CTF)
#define GASVAR(id) VAR(id, DIFV_KIND_ARRAY, DIFV_SCOPE_GLOBAL, DIF_TYPE_STRING)
#define TAVAR(id) VAR(id, DIFV_KIND_ARRAY, DIFV_SCOPE_THREAD, DIF_TYPE_CTF)

#define OK(v)		.kind = DV_OK, .rval = (uint64_t)(v)
#define OKSTR(s)	.kind = DV_OK, .rstr = (s)
#define FAULT(f, pc, ill) .kind = DV_FAULT, .fault = DTRACEFLT_##f, .fault_pc = (pc) * 4, \
	.illval = (uint64_t)(ill)
#define FAULT_ANY(f, pc) .kind = DV_FAULT, .fault = DTRACEFLT_##f, .fault_pc = (pc) * 4, \
	.any_illval = 1
#define REJECT(pc, why)	.kind = DV_REJECT, .offset = (pc) * 4, .reason = (why)
#define REJECT_TABLE(why) .kind = DV_REJECT, .offset = 0xffffffffu, .reason = (why)

/* r3 = a op b */
#define ALU(n, op, a, b, want) \
	{ .name = n, INTS(a, b), TEXT(SETX(0, 1), SETX(1, 2), R3(op, 1, 2, 3), RET(3)), OK(want) }
#define DIVZ(n, op) \
	{ .name = n, INTS(7), TEXT(SETX(0, 1), R3(op, 1, 0, 2), RET(2)), FAULT(DIVZERO, 1, 0) }
/* 1 if "cmp a, b; b<op>" is taken, else 0 */
#define BRANCH(n, op, a, b, taken) \
	{ .name = n, INTS(a, b, 0, 1), TEXT(SETX(0, 1), SETX(1, 2), CMP(1, 2), BR(op, 6), \
		SETX(2, 3), RET(3), SETX(3, 3), RET(3)), OK(taken) }
#define LOAD(n, op, addr, want) \
	{ .name = n, INTS(addr), TEXT(SETX(0, 1), LD(op, 1, 2), RET(2)), OK(want) }
#define LOADF(n, op, addr, f) \
	{ .name = n, INTS(addr), TEXT(SETX(0, 1), LD(op, 1, 2), RET(2)), FAULT(f, 1, addr) }
/* r2 = subr(value) */
#define SUBR1(n, s, val, want) \
	{ .name = n, INTS(val), TEXT(SETX(0, 1), PUSHV(1), CALL(s, 2), RET(2)), want }
/* r3 = subr(value, value) */
#define SUBR2(n, s, v1, v2, want) \
	{ .name = n, INTS(v1, v2), TEXT(SETX(0, 1), SETX(1, 2), PUSHV(1), PUSHV(2), \
		CALL(s, 3), RET(3)), want }
/* r4 = subr(value, value, value) */
#define SUBR3(n, s, v1, v2, v3, want) \
	{ .name = n, INTS(v1, v2, v3), TEXT(SETX(0, 1), SETX(1, 2), SETX(2, 3), PUSHV(1), \
		PUSHV(2), PUSHV(3), CALL(s, 4), RET(4)), want }
/* r2 = subr(string-table string at 0) */
#define SUBRS(n, s, str, want) \
	{ .name = n, STRS(str), TEXT(SETS(0, 1), PUSHS(1), CALL(s, 2), RET(2)), want }
/* r3 = subr(arena address, string-table string at 0 [, value]) */
#define SUBRKS(n, s, addr, str, want) \
	{ .name = n, INTS(addr), STRS(str), TEXT(SETX(0, 1), SETS(0, 2), PUSHS(1), PUSHS(2), \
		CALL(s, 3), RET(3)), want }
#define SUBRKSV(n, s, addr, str, val, want) \
	{ .name = n, INTS(addr, val), STRS(str), TEXT(SETX(0, 1), SETS(0, 2), SETX(1, 3), \
		PUSHS(1), PUSHS(2), PUSHV(3), CALL(s, 4), RET(4)), want }

/* r3 = json(js, sel), both from the string table */
#define JSON(n, js, sel, want) \
	{ .name = n, STRS(js "\0" sel), TEXT(SETS(0, 1), SETS(sizeof(js), 2), PUSHS(1), \
		PUSHS(2), CALL(JSON, 3), RET(3)), want }
#define JDOC "{\"a\":1,\"b\":\"two\",\"c\":[10,20,{\"d\":true}],\"e\":-1.5e+3}"

#define K(off)	((uint64_t)DV_KBASE + (off))
#define U(off)	((uint64_t)DV_UBASE + (off))
#define KHELLO	K(0x10)	/* "hello, world" */
#define KPATH	K(0x20)	/* "/usr/lib/libc.so" */
#define KMIXED	K(0x40)	/* "Hello World 123" */
#define KEND	K(0xfd)	/* "abc" and the end of the arena: no NUL */
#define NEG(x)	((uint64_t)(int64_t)(x))
#define I64MIN	((uint64_t)1 << 63)

const dif_vector_t dif_vectors[] = {
	/* ALU */
	{ .name = "ret_r0", TEXT(RET(0)), OK(0) },
	{ .name = "setx", INTS(42), TEXT(SETX(0, 1), RET(1)), OK(42) },
	{ .name = "nop", INTS(5), TEXT(NOP, SETX(0, 1), NOP, RET(1)), OK(5) },
	{ .name = "mov", INTS(9), TEXT(SETX(0, 1), DIF_INSTR_MOV(1, 2), RET(2)), OK(9) },
	{ .name = "not", TEXT(DIF_INSTR_NOT(0, 1), RET(1)), OK(NEG(-1)) },
	{ .name = "r0_reads_zero", INTS(3), TEXT(SETX(0, 1), R3(ADD, 0, 0, 2), RET(2)), OK(0) },
	ALU("or", OR, 0xf0, 0x0f, 0xff),
	ALU("xor", XOR, 0xff, 0x0f, 0xf0),
	ALU("and", AND, 0xf0, 0x3c, 0x30),
	ALU("sll", SLL, 1, 4, 16),
	ALU("sll_count_mod_64", SLL, 1, 64, 1),
	ALU("srl", SRL, I64MIN, 63, 1),
	ALU("sra", SRA, NEG(-16), 2, NEG(-4)),
	ALU("sub", SUB, 5, 7, NEG(-2)),
	ALU("add_wraps", ADD, NEG(-1), 1, 0),
	ALU("mul", MUL, 6, 7, 42),
	ALU("sdiv", SDIV, NEG(-7), 2, NEG(-3)),
	ALU("sdiv_min_by_minus1", SDIV, I64MIN, NEG(-1), I64MIN),
	ALU("udiv", UDIV, NEG(-8), 2, 0x7ffffffffffffffcull),
	ALU("srem", SREM, NEG(-7), 2, NEG(-1)),
	ALU("srem_min_by_minus1", SREM, I64MIN, NEG(-1), 0),
	ALU("urem", UREM, 7, 3, 1),
	DIVZ("sdiv_by_zero", SDIV),
	DIVZ("udiv_by_zero", UDIV),
	DIVZ("srem_by_zero", SREM),
	DIVZ("urem_by_zero", UREM),

	/* compare and branch */
	BRANCH("ba", BA, 1, 2, 1),
	BRANCH("be_taken", BE, 5, 5, 1),
	BRANCH("be_not_taken", BE, 5, 6, 0),
	BRANCH("bne", BNE, 5, 6, 1),
	BRANCH("bg", BG, 6, 5, 1),
	BRANCH("bg_equal", BG, 5, 5, 0),
	BRANCH("bg_signed", BG, NEG(-1), 1, 0),
	BRANCH("bgu_unsigned", BGU, NEG(-1), 1, 1),
	BRANCH("bge", BGE, 5, 5, 1),
	BRANCH("bgeu", BGEU, 1, NEG(-1), 0),
	BRANCH("bl_signed", BL, NEG(-1), 1, 1),
	BRANCH("blu", BLU, 1, NEG(-1), 1),
	BRANCH("ble", BLE, 5, 5, 1),
	BRANCH("bleu", BLEU, 2, 1, 0),
	{ .name = "tst_zero", INTS(0, 0, 1), TEXT(SETX(0, 1), DIF_INSTR_TST(1), BR(BE, 5),
		SETX(1, 3), RET(3), SETX(2, 3), RET(3)), OK(1) },
	{ .name = "scmp_less", STRS("abc\0abd"), INTS(0, 1), TEXT(SETS(0, 1), SETS(4, 2),
		SCMP(1, 2), BR(BL, 6), SETX(0, 3), RET(3), SETX(1, 3), RET(3)), OK(1) },
	{ .name = "scmp_equal_across_memory", STRS("hello, world"), INTS(KHELLO, 0, 1),
		TEXT(SETX(0, 1), SETS(0, 2), SCMP(1, 2), BR(BE, 6), SETX(1, 3), RET(3),
		SETX(2, 3), RET(3)), OK(1) },

	/* loads */
	LOAD("ldub", LDUB, K(0), 0x11),
	LOAD("lduh", LDUH, K(0), 0x2211),
	LOAD("lduw", LDUW, K(0), 0x44332211),
	LOAD("ldx", LDX, K(0), 0x8877665544332211ull),
	LOAD("ldub_high_bit", LDUB, K(8), 0xff),
	LOAD("ldsb", LDSB, K(8), NEG(-1)),
	LOAD("ldsh", LDSH, K(8), 0xfffffffffffffeffull),
	LOAD("ldsw", LDSW, K(8), 0xfffffffffcfdfeffull),
	LOAD("uldub", ULDUB, U(0), 0x01),
	LOAD("ulduh", ULDUH, U(0), 0x0201),
	LOAD("ulduw", ULDUW, U(0), 0x04030201),
	LOAD("uldx", ULDX, U(0), 0x0807060504030201ull),
	LOAD("uldsb", ULDSB, U(8), NEG(-128)),
	LOAD("uldsh", ULDSH, U(8), 0x80),
	LOADF("ldx_null", LDX, 0, BADADDR),
	LOADF("ldx_unmapped", LDX, 0xdead0000ull, BADADDR),
	LOADF("lduh_misaligned", LDUH, K(1), BADALIGN),
	LOADF("uldx_kernel_address", ULDX, K(0), BADADDR),
	{ .name = "ldub_string_table", STRS("hi"), TEXT(SETS(0, 1), LD(LDUB, 1, 2), RET(2)),
		OK('h') },
	{ .name = "rldub_string_table", STRS("hi"), TEXT(SETS(0, 1), LD(RLDUB, 1, 2), RET(2)),
		OK('h') },
	LOADF("rldx_unprivileged", RLDX, K(0), KPRIV),
	{ .name = "rldx_privileged", INTS(K(0)), TEXT(SETX(0, 1), LD(RLDX, 1, 2), RET(2)),
		.kernel_priv = 1, OK(0x8877665544332211ull) },
	{ .name = "rldsb_privileged", INTS(K(8)), TEXT(SETX(0, 1), LD(RLDSB, 1, 2), RET(2)),
		.kernel_priv = 1, OK(NEG(-1)) },

	/* stores, allocs, copys */
	{ .name = "stb_ldub", INTS(8, 0x1ff), TEXT(SETX(0, 1), DIF_INSTR_ALLOCS(1, 2), SETX(1, 3),
		ST(STB, 3, 2), LD(LDUB, 2, 4), RET(4)), OK(0xff) },
	{ .name = "sth_lduh", INTS(8, 0x12345), TEXT(SETX(0, 1), DIF_INSTR_ALLOCS(1, 2),
		SETX(1, 3), ST(STH, 3, 2), LD(LDUH, 2, 4), RET(4)), OK(0x2345) },
	{ .name = "stw_ldsw", INTS(8, 0x80000000), TEXT(SETX(0, 1), DIF_INSTR_ALLOCS(1, 2),
		SETX(1, 3), ST(STW, 3, 2), LD(LDSW, 2, 4), RET(4)), OK(0xffffffff80000000ull) },
	{ .name = "stx_ldx", INTS(8, 0x0102030405060708ull), TEXT(SETX(0, 1),
		DIF_INSTR_ALLOCS(1, 2), SETX(1, 3), ST(STX, 3, 2), LD(LDX, 2, 4), RET(4)),
		OK(0x0102030405060708ull) },
	{ .name = "allocs_zeroed", INTS(8), TEXT(SETX(0, 1), DIF_INSTR_ALLOCS(1, 2),
		LD(LDX, 2, 3), RET(3)), OK(0) },
	{ .name = "stx_outside_scratch", INTS(K(0), 5), TEXT(SETX(0, 1), SETX(1, 2),
		ST(STX, 2, 1), RET(0)), FAULT(BADADDR, 2, K(0)) },
	{ .name = "sth_misaligned", INTS(8, 1), TEXT(SETX(0, 1), DIF_INSTR_ALLOCS(1, 2),
		SETX(1, 3), R3(ADD, 2, 3, 2), ST(STH, 3, 2), RET(0)), FAULT_ANY(BADALIGN, 4) },
	{ .name = "allocs_no_scratch", INTS(128), .scratch = 64, TEXT(SETX(0, 1),
		DIF_INSTR_ALLOCS(1, 2), RET(2)), FAULT(NOSCRATCH, 1, 0) },
	{ .name = "copys", STRS("hi"), INTS(8, 3), TEXT(SETX(0, 1), DIF_INSTR_ALLOCS(1, 2),
		SETS(0, 3), SETX(1, 4), DIF_INSTR_COPYS(3, 4, 2), RET(2)), OKSTR("hi") },
	{ .name = "copys_outside_scratch", STRS("hi"), INTS(K(0), 3), TEXT(SETS(0, 1),
		SETX(0, 2), SETX(1, 3), DIF_INSTR_COPYS(1, 3, 2), RET(2)),
		FAULT(BADADDR, 3, K(0)) },

	/* variables */
	{ .name = "pid", TEXT(LDV(LDGS, DIF_VAR_PID, 1), RET(1)), OK(DV_PID) },
	{ .name = "tid", TEXT(LDV(LDGS, DIF_VAR_TID, 1), RET(1)), OK(DV_TID) },
	{ .name = "timestamp", TEXT(LDV(LDGS, DIF_VAR_TIMESTAMP, 1), RET(1)), OK(DV_TIMESTAMP) },
	{ .name = "execname", TEXT(LDV(LDGS, DIF_VAR_EXECNAME, 1), RET(1)),
		OKSTR("dtrace-test") },
	{ .name = "arg3", TEXT(LDV(LDGS, DIF_VAR_ARG3, 1), RET(1)), OK(DV_ARG(3)) },
	{ .name = "args_2", INTS(2), TEXT(SETX(0, 1),
		DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_ARGS, 1, 2), RET(2)), OK(DV_ARG(2)) },
	{ .name = "args_out_of_range", INTS(99), TEXT(SETX(0, 1),
		DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_ARGS, 1, 2), RET(2)),
		FAULT(ILLOP, 1, DIF_VAR_ARGS) },
	{ .name = "builtin_unavailable", TEXT(LDV(LDGS, DIF_VAR_ZONENAME, 1), RET(1)),
		FAULT(ILLOP, 0, DIF_VAR_ZONENAME) },
	{ .name = "global_store_load", VARS(GVAR(0x500)), INTS(77), TEXT(SETX(0, 1),
		STV(STGS, 0x500, 1), LDV(LDGS, 0x500, 2), RET(2)), OK(77), .check_g0 = 1,
		.g0 = 77 },
	{ .name = "local_store_load", VARS(LVAR(0x500)), INTS(78), TEXT(SETX(0, 1),
		STV(STLS, 0x500, 1), LDV(LDLS, 0x500, 2), RET(2)), OK(78), .check_g0 = 1,
		.g0 = 0 },
	{ .name = "global_beyond_storage", VARS(GVAR(0x5ff)), TEXT(LDV(LDGS, 0x5ff, 1), RET(1)),
		FAULT(ILLOP, 0, 0x5ff) },
	/* by-reference scalars: a copy in the variable's buffer */
	{ .name = "string_global_store_load", VARS(GSVAR(0x500)), STRS("hello"), TEXT(SETS(0, 1),
		STV(STGS, 0x500, 1), LDV(LDGS, 0x500, 2), RET(2)), OKSTR("hello") },
	{ .name = "string_global_unset_is_empty", VARS(GSVAR(0x501)), TEXT(LDV(LDGS, 0x501, 1),
		RET(1)), OKSTR("") },
	{ .name = "string_global_store_zero_is_null", VARS(GSVAR(0x500)), STRS("hello"),
		TEXT(SETS(0, 1), STV(STGS, 0x500, 1), STV(STGS, 0x500, 0), LDV(LDGS, 0x500, 2),
		RET(2)), OK(0) },
	{ .name = "string_global_strsize", VARS(GSVAR(0x500)), STRS("hello"), .strsize = 4,
		TEXT(SETS(0, 1), STV(STGS, 0x500, 1), LDV(LDGS, 0x500, 2), RET(2)), OKSTR("hel") },
	{ .name = "string_local_store_load", VARS(LSVAR(0x502)), STRS("local"), TEXT(SETS(0, 1),
		STV(STLS, 0x502, 1), LDV(LDLS, 0x502, 2), RET(2)), OKSTR("local") },
	{ .name = "string_global_bad_source", VARS(GSVAR(0x500)), INTS(0xdead0000ull),
		TEXT(SETX(0, 1), STV(STGS, 0x500, 1), RET(0)), FAULT(BADADDR, 1, 0xdead0000ull) },
	{ .name = "string_global_beyond_storage", VARS(GSVAR(0x5ff)), TEXT(LDV(LDGS, 0x5ff, 1),
		RET(1)), FAULT(ILLOP, 0, 0x5ff) },
	{ .name = "string_global_store_into", VARS(GSVAR(0x500)), STRS("hello"), INTS('j'),
		TEXT(SETS(0, 1), STV(STGS, 0x500, 1), LDV(LDGS, 0x500, 2), SETX(0, 3),
		ST(STB, 3, 2), RET(2)), OKSTR("jello") },

	/* thread-locals (self->) */
	{ .name = "tls_store_load", VARS(TVAR(0x500)), INTS(42), TEXT(SETX(0, 1),
		STV(STTS, 0x500, 1), LDV(LDTS, 0x500, 2), RET(2)), OK(42) },
	{ .name = "tls_unset_reads_zero", VARS(TVAR(0x500)), TEXT(LDV(LDTS, 0x500, 1), RET(1)),
		OK(0) },
	{ .name = "tls_store_zero_deletes", VARS(TVAR(0x500)), INTS(42), TEXT(SETX(0, 1),
		STV(STTS, 0x500, 1), STV(STTS, 0x500, 0), LDV(LDTS, 0x500, 2), RET(2)), OK(0) },
	{ .name = "tls_two_variables", VARS(TVAR(0x500), TVAR(0x501)), INTS(1, 2), TEXT(SETX(0, 1),
		SETX(1, 2), STV(STTS, 0x500, 1), STV(STTS, 0x501, 2), LDV(LDTS, 0x500, 3),
		LDV(LDTS, 0x501, 4), R3(SUB, 4, 3, 5), RET(5)), OK(1) },
	{ .name = "tls_overwrite", VARS(TVAR(0x500)), INTS(1, 2), TEXT(SETX(0, 1), SETX(1, 2),
		STV(STTS, 0x500, 1), STV(STTS, 0x500, 2), LDV(LDTS, 0x500, 3), RET(3)), OK(2) },
	{ .name = "tls_string", VARS(TSVAR(0x500)), STRS("thread"), TEXT(SETS(0, 1),
		STV(STTS, 0x500, 1), LDV(LDTS, 0x500, 2), RET(2)), OKSTR("thread") },
	{ .name = "tls_not_global_assoc", VARS(TVAR(0x500), GAVAR(0x500)), INTS(7, DV_TID),
		TEXT(SETX(0, 1), STV(STTS, 0x500, 1), SETX(1, 2), PUSHV(2), LDV(LDGAA, 0x500, 3),
		RET(3)), OK(0) },
	{ .name = "tls_without_vartab_entry_is_rejected", TEXT(LDV(LDTS, 0x500, 1), RET(1)),
		REJECT(0, "unknown variable") },

	/* associative arrays: a[k] */
	{ .name = "assoc_int_keys", VARS(GAVAR(0x500)), INTS(1, 2, 10, 20), TEXT(SETX(0, 1),
		SETX(1, 2), SETX(2, 3), SETX(3, 4), PUSHV(1), STV(STGAA, 0x500, 3),
		DIF_INSTR_FLUSHTS, PUSHV(2), STV(STGAA, 0x500, 4), DIF_INSTR_FLUSHTS, PUSHV(1),
		LDV(LDGAA, 0x500, 5), RET(5)), OK(10) },
	{ .name = "assoc_missing_key_reads_zero", VARS(GAVAR(0x500)), INTS(1, 10, 2), TEXT(SETX(0, 1),
		SETX(1, 2), SETX(2, 3), PUSHV(1), STV(STGAA, 0x500, 2), DIF_INSTR_FLUSHTS, PUSHV(3),
		LDV(LDGAA, 0x500, 4), RET(4)), OK(0), .check_drops = 1, .drops = 0 },
	{ .name = "assoc_string_key_by_content", VARS(GAVAR(0x500)), STRS("abc\0abc"), INTS(99),
		TEXT(SETS(0, 1), SETS(4, 2), SETX(0, 3), PUSHS(1), STV(STGAA, 0x500, 3),
		DIF_INSTR_FLUSHTS, PUSHS(2), LDV(LDGAA, 0x500, 4), RET(4)), OK(99) },
	{ .name = "assoc_string_key_differs", VARS(GAVAR(0x500)), STRS("abc\0abd"), INTS(99),
		TEXT(SETS(0, 1), SETS(4, 2), SETX(0, 3), PUSHS(1), STV(STGAA, 0x500, 3),
		DIF_INSTR_FLUSHTS, PUSHS(2), LDV(LDGAA, 0x500, 4), RET(4)), OK(0) },
	{ .name = "assoc_two_keys", VARS(GAVAR(0x500)), STRS("k"), INTS(5, 6, 77), TEXT(SETS(0, 1),
		SETX(0, 2), SETX(1, 3), SETX(2, 4), PUSHS(1), PUSHV(2), STV(STGAA, 0x500, 4),
		DIF_INSTR_FLUSHTS, PUSHS(1), PUSHV(3), LDV(LDGAA, 0x500, 5), DIF_INSTR_FLUSHTS,
		PUSHS(1), PUSHV(2), LDV(LDGAA, 0x500, 6), R3(ADD, 5, 6, 6), RET(6)), OK(77) },
	{ .name = "assoc_store_zero_deletes", VARS(GAVAR(0x500)), INTS(1, 10), TEXT(SETX(0, 1),
		SETX(1, 2), PUSHV(1), STV(STGAA, 0x500, 2), STV(STGAA, 0x500, 0),
		LDV(LDGAA, 0x500, 3), RET(3)), OK(0) },
	{ .name = "assoc_string_value", VARS(GASVAR(0x500)), STRS("key\0value"), TEXT(SETS(0, 1),
		SETS(4, 2), PUSHS(1), STV(STGAA, 0x500, 2), LDV(LDGAA, 0x500, 3), RET(3)),
		OKSTR("value") },
	{ .name = "assoc_thread_scope", VARS(TAVAR(0x500)), INTS(3, 33), TEXT(SETX(0, 1),
		SETX(1, 2), PUSHV(1), STV(STTAA, 0x500, 2), LDV(LDTAA, 0x500, 3), RET(3)), OK(33) },
	{ .name = "assoc_no_tuple", VARS(GAVAR(0x500)), INTS(4), TEXT(SETX(0, 1),
		STV(STGAA, 0x500, 1), LDV(LDGAA, 0x500, 2), RET(2)), OK(4) },
	{ .name = "assoc_key_outside_memory", VARS(GAVAR(0x500)), INTS(0xdead0000ull, 8),
		TEXT(SETX(0, 1), SETX(1, 2), DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_CTF, 2, 1),
		LDV(LDGAA, 0x500, 3), RET(3)), FAULT(BADADDR, 3, 0xdead0000ull) },
	{ .name = "dynvar_drop_when_full", VARS(GAVAR(0x500)), .dynvarsize = 1000,
		INTS(1, 2, 10, 20), TEXT(SETX(0, 1), SETX(1, 2), SETX(2, 3), SETX(3, 4), PUSHV(1),
		STV(STGAA, 0x500, 3), DIF_INSTR_FLUSHTS, PUSHV(2), STV(STGAA, 0x500, 4),
		LDV(LDGAA, 0x500, 5), RET(5)), OK(0), .check_drops = 1, .drops = 1 },
	{ .name = "dynvar_delete_then_reuse_after_clean_only", VARS(GAVAR(0x500)),
		.dynvarsize = 1000, INTS(1, 2, 10, 20), TEXT(SETX(0, 1), SETX(1, 2), SETX(2, 3),
		SETX(3, 4), PUSHV(1), STV(STGAA, 0x500, 3), STV(STGAA, 0x500, 0),
		DIF_INSTR_FLUSHTS, PUSHV(2), STV(STGAA, 0x500, 4), LDV(LDGAA, 0x500, 5), RET(5)),
		OK(0), .check_drops = 1, .drops = 1 },
	{ .name = "user_array_illop", VARS(VAR(0x80, DIFV_KIND_ARRAY, DIFV_SCOPE_GLOBAL,
		DIF_TYPE_CTF)), TEXT(DIF_INSTR_LDA(DIF_OP_LDGA, 0x80, 0, 1), RET(1)),
		FAULT(ILLOP, 0, 0x80) },

	/* tuple stack */
	{ .name = "tuple_overflow", TEXT(PUSHV(0), PUSHV(0), PUSHV(0), PUSHV(0), PUSHV(0),
		PUSHV(0), PUSHV(0), PUSHV(0), PUSHV(0), RET(0)), FAULT(TUPOFLOW, 8, 0) },
	{ .name = "popts", STRS("ab\0cde"), TEXT(SETS(0, 1), SETS(3, 2), PUSHS(1), PUSHS(2),
		DIF_INSTR_POPTS, CALL(STRLEN, 3), RET(3)), OK(2) },
	{ .name = "flushts_then_call", STRS("ab"), TEXT(SETS(0, 1), PUSHS(1), DIF_INSTR_FLUSHTS,
		CALL(STRLEN, 2), RET(2)), FAULT(ILLOP, 3, DIF_SUBR_STRLEN) },
	{ .name = "pushtr_string_faults", INTS(KEND), TEXT(SETX(0, 1), PUSHS(1), RET(0)),
		FAULT(BADADDR, 1, K(0x100)) },

	/* subroutines */
	SUBRS("strlen_strtab", STRLEN, "hello", OK(5)),
	SUBR1("strlen_arena", STRLEN, KHELLO, OK(12)),
	{ .name = "strlen_strsize", INTS(KHELLO), .strsize = 4, TEXT(SETX(0, 1), PUSHV(1),
		CALL(STRLEN, 2), RET(2)), OK(4) },
	SUBR1("strlen_off_the_end", STRLEN, KEND, FAULT(BADADDR, 2, K(0x100))),
	{ .name = "strlen_null", TEXT(PUSHV(0), CALL(STRLEN, 1), RET(1)), FAULT(BADADDR, 1, 0) },
	SUBR2("strchr", STRCHR, KHELLO, 'o', OK(KHELLO + 4)),
	SUBR2("strrchr", STRRCHR, KHELLO, 'o', OK(KHELLO + 8)),
	SUBR2("strchr_none", STRCHR, KHELLO, 'z', OK(0)),
	SUBR2("strchr_nul", STRCHR, KHELLO, 0, OK(KHELLO + 12)),
	SUBRKS("strstr", STRSTR, KHELLO, "wor", OK(KHELLO + 7)),
	SUBRKS("strstr_none", STRSTR, KHELLO, "xyz", OK(0)),
	SUBRKS("index", INDEX, KHELLO, "o", OK(4)),
	SUBRKSV("index_from", INDEX, KHELLO, "o", 5, OK(8)),
	SUBRKS("index_none", INDEX, KHELLO, "q", OK(NEG(-1))),
	SUBRKSV("index_empty_past_end", INDEX, KHELLO, "", 50, OK(12)),
	SUBRKS("rindex", RINDEX, KHELLO, "o", OK(8)),
	SUBRKSV("rindex_from", RINDEX, KHELLO, "o", 7, OK(4)),
	SUBRKSV("rindex_empty_negative", RINDEX, KHELLO, "", NEG(-1), OK(0)),
	{ .name = "index_both_empty", STRS(""), TEXT(SETS(0, 1), PUSHS(1), PUSHS(1),
		CALL(INDEX, 2), RET(2)), OK(0) },
	SUBR2("substr", SUBSTR, KHELLO, 7, OKSTR("world")),
	SUBR2("substr_negative", SUBSTR, KHELLO, NEG(-5), OKSTR("world")),
	SUBR2("substr_past_end", SUBSTR, KHELLO, 20, OKSTR("")),
	SUBR3("substr_len", SUBSTR, KHELLO, 0, 5, OKSTR("hello")),
	SUBR3("substr_negative_len", SUBSTR, KHELLO, NEG(-5), 2, OKSTR("wo")),
	{ .name = "strjoin", STRS("foo\0bar"), TEXT(SETS(0, 1), SETS(4, 2), PUSHS(1), PUSHS(2),
		CALL(STRJOIN, 3), RET(3)), OKSTR("foobar") },
	/* Cut at strsize - 1 characters, as every string result. */
	{ .name = "strjoin_over_strsize", STRS("foo\0bar"), .strsize = 4, TEXT(SETS(0, 1),
		SETS(4, 2), PUSHS(1), PUSHS(2), CALL(STRJOIN, 3), RET(3)),
		OKSTR("foo") },
	SUBR1("lltostr", LLTOSTR, 12345, OKSTR("12345")),
	SUBR1("lltostr_negative", LLTOSTR, NEG(-42), OKSTR("-42")),
	SUBR1("lltostr_zero", LLTOSTR, 0, OKSTR("0")),
	SUBR1("lltostr_int64_min", LLTOSTR, I64MIN, OKSTR("-9223372036854775808")),
	SUBR2("lltostr_hex", LLTOSTR, 255, 16, OKSTR("0xff")),
	SUBR2("lltostr_hex_zero", LLTOSTR, 0, 16, OKSTR("0x0")),
	SUBR2("lltostr_octal", LLTOSTR, 8, 8, OKSTR("010")),
	SUBR2("lltostr_binary", LLTOSTR, 5, 2, OKSTR("101")),
	SUBR2("lltostr_bad_base", LLTOSTR, 5, 1, FAULT(ILLOP, 4, 1)),
	SUBR1("toupper", TOUPPER, KMIXED, OKSTR("HELLO WORLD 123")),
	SUBR1("tolower", TOLOWER, KMIXED, OKSTR("hello world 123")),
	{ .name = "toupper_no_scratch", INTS(KMIXED), .scratch = 64, TEXT(SETX(0, 1), PUSHV(1),
		CALL(TOUPPER, 2), RET(2)), FAULT(NOSCRATCH, 2, 0) },
	SUBR1("basename", BASENAME, KPATH, OKSTR("libc.so")),
	SUBR1("dirname", DIRNAME, KPATH, OKSTR("/usr/lib")),
	SUBRS("basename_root", BASENAME, "/", OKSTR("/")),
	SUBRS("dirname_root", DIRNAME, "/", OKSTR("/")),
	SUBRS("basename_trailing_slash", BASENAME, "/usr/lib/", OKSTR("lib")),
	SUBRS("dirname_trailing_slash", DIRNAME, "/usr/lib/", OKSTR("/usr")),
	SUBRS("dirname_top", DIRNAME, "/usr", OKSTR("/")),
	SUBRS("dirname_relative", DIRNAME, "foo", OKSTR(".")),
	SUBRS("basename_relative", BASENAME, "foo", OKSTR("foo")),
	SUBRS("basename_empty", BASENAME, "", OKSTR(".")),
	SUBR1("htons", HTONS, 0x1234, OK(0x3412)),
	SUBR1("htonl", HTONL, 0x12345678, OK(0x78563412)),
	SUBR1("htonll", HTONLL, 0x0102030405060708ull, OK(0x0807060504030201ull)),
	SUBR1("ntohs", NTOHS, 0xabcd, OK(0xcdab)),
	SUBR1("ntohl", NTOHL, 0x11223344, OK(0x44332211)),
	SUBR1("ntohll", NTOHLL, 0x8000000000000001ull, OK(0x0100000000000080ull)),
	{ .name = "alloca", INTS(16, 0x55aa), TEXT(SETX(0, 1), PUSHV(1), CALL(ALLOCA, 2),
		SETX(1, 3), ST(STX, 3, 2), LD(LDX, 2, 4), RET(4)), OK(0x55aa) },
	{ .name = "alloca_no_scratch", INTS(65), .scratch = 64, TEXT(SETX(0, 1), PUSHV(1),
		CALL(ALLOCA, 2), RET(2)), FAULT(NOSCRATCH, 2, 0) },
	{ .name = "bcopy", STRS("abc"), INTS(8, 4), TEXT(SETX(0, 1), PUSHV(1), CALL(ALLOCA, 2),
		DIF_INSTR_FLUSHTS, SETS(0, 3), SETX(1, 4), PUSHV(3), PUSHV(2), PUSHV(4),
		CALL(BCOPY, 5), RET(2)), OKSTR("abc") },
	{ .name = "bcopy_outside_scratch", STRS("abc"), INTS(K(0), 4), TEXT(SETS(0, 1),
		SETX(0, 2), SETX(1, 3), PUSHV(1), PUSHV(2), PUSHV(3), CALL(BCOPY, 4), RET(0)),
		FAULT(BADADDR, 6, K(0)) },
	SUBR1("copyinstr", COPYINSTR, U(0x10), OKSTR("user string")),
	SUBR2("copyinstr_len", COPYINSTR, U(0x10), 4, OKSTR("user")),
	SUBR1("copyinstr_bad_address", COPYINSTR, K(0x10), FAULT(BADADDR, 2, K(0x10))),
	/* copyinargs (Linux): NULs become spaces, trailing NULs go */
	SUBR2("copyinargs", COPYINARGS, U(0x20), 10, OKSTR("ls -l /tmp")),
	SUBR2("copyinargs_final_nul", COPYINARGS, U(0x20), 11, OKSTR("ls -l /tmp")),
	SUBR2("copyinargs_len", COPYINARGS, U(0x20), 4, OKSTR("ls -")),
	SUBR2("copyinargs_bad_address", COPYINARGS, K(0x10), 4, FAULT(BADADDR, 4, K(0x10))),
	/* strtok: state carried between calls in the context */
	{ .name = "strtok_first", STRS(",,,Carrots,,Barley\0,"), TEXT(SETS(0, 1), SETS(19, 2),
		PUSHS(1), PUSHS(2), CALL(STRTOK, 3), RET(3)), OKSTR("Carrots") },
	{ .name = "strtok_next", STRS(",,,Carrots,,Barley\0,"), TEXT(SETS(0, 1), SETS(19, 2),
		PUSHS(1), PUSHS(2), CALL(STRTOK, 3), DIF_INSTR_FLUSHTS, PUSHV(0), PUSHS(2),
		CALL(STRTOK, 4), RET(4)), OKSTR("Barley") },
	{ .name = "strtok_exhausted", STRS("a,\0,"), TEXT(SETS(0, 1), SETS(3, 2), PUSHS(1),
		PUSHS(2), CALL(STRTOK, 3), DIF_INSTR_FLUSHTS, PUSHV(0), PUSHS(2), CALL(STRTOK, 4),
		RET(4)), OK(0) },
	{ .name = "strtok_null_after_end_faults", STRS("a\0,"), TEXT(SETS(0, 1), SETS(2, 2),
		PUSHS(1), PUSHS(2), CALL(STRTOK, 3), DIF_INSTR_FLUSHTS, PUSHV(0), PUSHS(2),
		CALL(STRTOK, 4), DIF_INSTR_FLUSHTS, PUSHV(0), PUSHS(2), CALL(STRTOK, 5), RET(5)),
		FAULT(BADADDR, 12, 0) },
	{ .name = "strtok_no_delimiters", STRS("abc\0"), TEXT(SETS(0, 1), SETS(3, 2), PUSHS(1),
		PUSHS(2), CALL(STRTOK, 3), RET(3)), OKSTR("abc") },

	SUBRS("cleanpath", CLEANPATH, "/a/./b//c/../d", OKSTR("/a/b/d")),
	SUBRS("cleanpath_dotdot_end", CLEANPATH, "/usr/lib/..", OKSTR("/usr/")),
	SUBRS("cleanpath_dotdot_name", CLEANPATH, "/a/..b/.c", OKSTR("/a/..b/.c")),
	SUBRS("cleanpath_above_root", CLEANPATH, "/../x", OKSTR("/x")),
	{ .name = "cleanpath_strsize", STRS("/abcdefgh"), .strsize = 8, TEXT(SETS(0, 1), PUSHS(1),
		CALL(CLEANPATH, 2), RET(2)), OKSTR("/ab") },

	SUBR1("inet_ntoa", INET_NTOA, K(0x70), OKSTR("192.168.1.10")),
	SUBR1("inet_ntoa_bad_address", INET_NTOA, 0xdead0000ull, FAULT(BADADDR, 2, 0xdead0000ull)),
	SUBR1("inet_ntoa6", INET_NTOA6, K(0x80), OKSTR("fe80::214:4fff:fe0b:76c8")),
	SUBR1("inet_ntoa6_v4mapped", INET_NTOA6, K(0x90), OKSTR("10.0.0.1")),
	SUBR1("inet_ntoa6_last_equal_run_wins", INET_NTOA6, K(0xa0), OKSTR("2001:db8:0:0:1::1")),
	SUBR1("inet_ntoa6_loopback", INET_NTOA6, K(0xb0), OKSTR("::1")),
	SUBR1("inet_ntoa6_unspecified", INET_NTOA6, K(0xc0), OKSTR("::")),
	SUBR2("inet_ntop_v4", INET_NTOP, 2, K(0x70), OKSTR("192.168.1.10")),
	SUBR2("inet_ntop_v6", INET_NTOP, 10, K(0x80), OKSTR("fe80::214:4fff:fe0b:76c8")),
	SUBR2("inet_ntop_v4mapped", INET_NTOP, 10, K(0x90), OKSTR("::ffff:10.0.0.1")),
	SUBR2("inet_ntop_bad_family", INET_NTOP, 26, K(0x80), FAULT(ILLOP, 4, 26)),
	{ .name = "inet_ntoa6_no_scratch", INTS(K(0x80)), .scratch = 40, TEXT(SETX(0, 1), PUSHV(1),
		CALL(INET_NTOA6, 2), RET(2)), FAULT(NOSCRATCH, 2, 0) },

	{ .name = "strtoll", STRS("  -123x"), TEXT(SETS(0, 1), PUSHS(1), CALL(STRTOLL, 2), RET(2)),
		OK(NEG(-123)) },
	{ .name = "strtoll_hex", STRS("0x1fg"), INTS(16), TEXT(SETS(0, 1), SETX(0, 2), PUSHS(1),
		PUSHV(2), CALL(STRTOLL, 3), RET(3)), OK(31) },
	{ .name = "strtoll_octal", STRS("+777"), INTS(8), TEXT(SETS(0, 1), SETX(0, 2), PUSHS(1),
		PUSHV(2), CALL(STRTOLL, 3), RET(3)), OK(511) },
	{ .name = "strtoll_base36", STRS("zZ"), INTS(36), TEXT(SETS(0, 1), SETX(0, 2), PUSHS(1),
		PUSHV(2), CALL(STRTOLL, 3), RET(3)), OK(1295) },
	{ .name = "strtoll_bad_base", STRS("1"), INTS(37), TEXT(SETS(0, 1), SETX(0, 2), PUSHS(1),
		PUSHV(2), CALL(STRTOLL, 3), RET(3)), FAULT(ILLOP, 4, 37) },
	{ .name = "strtoll_strsize", STRS("123456"), .strsize = 3, TEXT(SETS(0, 1), PUSHS(1),
		CALL(STRTOLL, 2), RET(2)), OK(123) },

	SUBR1("getmajor", GETMAJOR, (8u << 20) | 17, OK(8)),
	SUBR1("getminor", GETMINOR, (8u << 20) | 17, OK(17)),

	{ .name = "copyin", INTS(U(0), 8), TEXT(SETX(0, 1), SETX(1, 2), PUSHV(1), PUSHV(2),
		CALL(COPYIN, 3), LD(LDX, 3, 4), RET(4)), OK(0x0807060504030201ull) },
	SUBR2("copyin_bad_address", COPYIN, K(0), 4, FAULT(BADADDR, 4, K(0))),
	SUBR2("copyin_no_scratch", COPYIN, U(0), 8192, FAULT(NOSCRATCH, 4, 0)),
	{ .name = "copyinto", INTS(8, U(0x10), 4), TEXT(SETX(0, 1), PUSHV(1), CALL(ALLOCA, 2),
		DIF_INSTR_FLUSHTS, SETX(1, 3), SETX(2, 4), PUSHV(3), PUSHV(4), PUSHV(2),
		CALL(COPYINTO, 5), RET(2)), OKSTR("user") },
	SUBR3("copyinto_not_scratch", COPYINTO, U(0x10), 4, K(0), FAULT(BADADDR, 6, K(0))),
	{ .name = "copyout", STRS("hi"), INTS(DV_OBASE, 3), TEXT(SETS(0, 1), SETX(0, 2),
		SETX(1, 3), PUSHV(1), PUSHV(2), PUSHV(3), CALL(COPYOUT, 4), RET(4)), OK(0) },
	{ .name = "copyout_refused", STRS("hi"), INTS(U(0), 3), TEXT(SETS(0, 1), SETX(0, 2),
		SETX(1, 3), PUSHV(1), PUSHV(2), PUSHV(3), CALL(COPYOUT, 4), RET(4)),
		FAULT(BADADDR, 6, U(0)) },
	SUBR3("copyout_source_not_owned", COPYOUT, K(0), DV_OBASE, 4, FAULT(BADADDR, 6, K(0))),
	{ .name = "copyoutstr", STRS("hi"), INTS(DV_OBASE, 16), TEXT(SETS(0, 1), SETX(0, 2),
		SETX(1, 3), PUSHV(1), PUSHV(2), PUSHV(3), CALL(COPYOUTSTR, 4), RET(4)), OK(0) },

	{ .name = "speculation", TEXT(CALL(SPECULATION, 1), RET(1)), OK(DV_SPEC) },
	SUBR1("progenyof_self", PROGENYOF, DV_PID, OK(1)),
	SUBR1("progenyof_init", PROGENYOF, 1, OK(1)),
	SUBR1("progenyof_other", PROGENYOF, 99, OK(0)),
	JSON("json_number", JDOC, "a", OKSTR("1")),
	JSON("json_string", JDOC, "b", OKSTR("two")),
	JSON("json_array_element", JDOC, "c[1]", OKSTR("20")),
	JSON("json_nested", JDOC, "c[2].d", OKSTR("true")),
	JSON("json_whole_array", JDOC, "c", OKSTR("[10,20,{\"d\":true}]")),
	JSON("json_exponent", JDOC, "e", OKSTR("-1.5e+3")),
	JSON("json_missing", JDOC, "x", OK(0)),
	JSON("json_expected_object", JDOC, "b.x", OK(0)),
	JSON("json_top_array", "[5, 6]", "[1]", OKSTR("6")),
	JSON("json_malformed", "{\"a\" 1}", "a", OK(0)),
	JSON("json_hex_rejected", "{\"a\":0x1}", "a", OK(0)),
	JSON("json_escape_kept", "{\"s\":\"x\\\"y\\u00e9\"}", "s", OKSTR("x\\\"y\\u00e9")),
	SUBR1("mutex_owned_illop", MUTEX_OWNED, K(0), FAULT(ILLOP, 2, DIF_SUBR_MUTEX_OWNED)),
	/* a queued rwlock's cnts word: 0x01000000 readers, 0xfcfdfeff a writer, 0x100 one waits */
	SUBR1("rw_read_held_readers", RW_READ_HELD, K(0xac), OK(1)),
	SUBR1("rw_read_held_writer", RW_READ_HELD, K(0x08), OK(0)),
	SUBR1("rw_write_held_writer", RW_WRITE_HELD, K(0x08), OK(1)),
	SUBR1("rw_write_held_readers", RW_WRITE_HELD, K(0xac), OK(0)),
	SUBR1("rw_iswriter_waiting", RW_ISWRITER, K(0xa8), OK(1)),
	SUBR1("rw_iswriter_readers", RW_ISWRITER, K(0xac), OK(0)),
	SUBR1("rw_iswriter_free", RW_ISWRITER, K(0x1c), OK(0)),
	SUBR1("rw_read_held_badaddr", RW_READ_HELD, 8, FAULT(BADADDR, 2, 8)),
	SUBR1("msgsize_illop", MSGSIZE, K(0), FAULT(ILLOP, 2, DIF_SUBR_MSGSIZE)),
	SUBR1("getf_illop", GETF, 0, FAULT(ILLOP, 2, DIF_SUBR_GETF)),
	{ .name = "d_path_illop", TEXT(PUSHV(0), CALL(D_PATH, 1), RET(1)),
		FAULT(ILLOP, 1, DIF_SUBR_D_PATH) },

	/* a faulting program stops: the store after the fault never happens */
	{ .name = "fault_stops_divzero", VARS(GVAR(0x500)), INTS(1), TEXT(SETX(0, 1),
		R3(SDIV, 1, 0, 2), STV(STGS, 0x500, 1), RET(1)), FAULT(DIVZERO, 1, 0),
		.check_g0 = 1, .g0 = 0 },
	{ .name = "fault_stops_badaddr", VARS(GVAR(0x500)), INTS(1), TEXT(SETX(0, 1),
		LD(LDX, 0, 2), STV(STGS, 0x500, 1), RET(1)), FAULT(BADADDR, 1, 0),
		.check_g0 = 1, .g0 = 0 },
	{ .name = "fault_stops_in_subr", VARS(GVAR(0x500)), INTS(1), TEXT(SETX(0, 1), PUSHV(0),
		CALL(STRLEN, 2), STV(STGS, 0x500, 1), RET(1)), FAULT(BADADDR, 2, 0),
		.check_g0 = 1, .g0 = 0 },

	/* validator */
	{ .name = "reject_empty", .len = 0, REJECT_TABLE("empty DIF object") },
	{ .name = "reject_unterminated_strtab", .strtab = "abc", .strlen = 3, TEXT(RET(0)),
		REJECT_TABLE("unterminated string table") },
	{ .name = "reject_bad_vartab_scope", VARS(VAR(0x500, DIFV_KIND_SCALAR, 3,
		DIF_TYPE_CTF)), TEXT(RET(0)), REJECT_TABLE("invalid variable table entry") },
	{ .name = "reject_opcode_0", TEXT(0, RET(0)), REJECT(0, "invalid opcode") },
	{ .name = "reject_opcode_80", TEXT(NOP, DIF_INSTR_FMT(80, 0, 0, 0), RET(0)),
		REJECT(1, "invalid opcode") },
	{ .name = "reject_nop_reserved", TEXT(DIF_INSTR_FMT(DIF_OP_NOP, 0, 0, 1), RET(0)),
		REJECT(0, "non-zero reserved bits") },
	{ .name = "reject_mov_reserved", TEXT(DIF_INSTR_FMT(DIF_OP_MOV, 1, 1, 2), RET(0)),
		REJECT(0, "non-zero reserved bits") },
	{ .name = "reject_tst_reserved", TEXT(DIF_INSTR_FMT(DIF_OP_TST, 1, 0, 1), RET(0)),
		REJECT(0, "non-zero reserved bits") },
	{ .name = "reject_ret_reserved", TEXT(DIF_INSTR_FMT(DIF_OP_RET, 1, 0, 0)),
		REJECT(0, "non-zero reserved bits") },
	{ .name = "reject_source_register", TEXT(R3(ADD, 8, 1, 2), RET(2)),
		REJECT(0, "invalid register") },
	{ .name = "reject_dest_register", TEXT(R3(ADD, 1, 1, 8), RET(0)),
		REJECT(0, "invalid register") },
	{ .name = "reject_ret_register", TEXT(RET(9)), REJECT(0, "invalid register") },
	{ .name = "reject_write_r0", TEXT(R3(ADD, 1, 1, 0), RET(0)),
		REJECT(0, "cannot write to %r0") },
	{ .name = "reject_load_into_r0", TEXT(LD(LDX, 1, 0), RET(0)),
		REJECT(0, "cannot write to %r0") },
	{ .name = "reject_call_into_r0", TEXT(CALL(STRLEN, 0), RET(0)),
		REJECT(0, "cannot write to %r0") },
	{ .name = "reject_store_to_r0", TEXT(ST(STX, 1, 0), RET(0)),
		REJECT(0, "cannot write to address 0") },
	{ .name = "reject_int_ref", INTS(1), TEXT(SETX(1, 1), RET(1)),
		REJECT(0, "invalid integer reference") },
	{ .name = "reject_int_ref_no_table", TEXT(NOP, SETX(0, 1), RET(1)),
		REJECT(1, "invalid integer reference") },
	{ .name = "reject_string_ref", STRS("a"), TEXT(SETS(2, 1), RET(1)),
		REJECT(0, "invalid string reference") },
	{ .name = "reject_branch_past_end", TEXT(BR(BA, 2), RET(0)),
		REJECT(0, "invalid branch target") },
	{ .name = "reject_branch_to_self", TEXT(NOP, BR(BE, 1), RET(0)),
		REJECT(1, "backward branch") },
	{ .name = "reject_backward_branch", TEXT(NOP, BR(BA, 0), RET(0)),
		REJECT(1, "backward branch") },
	{ .name = "reject_no_final_ret", TEXT(RET(0), NOP), REJECT(1,
		"expected ret as last instruction") },
	{ .name = "reject_undeclared_variable", TEXT(LDV(LDGS, 0x500, 1), RET(1)),
		REJECT(0, "unknown variable") },
	{ .name = "reject_variable_wrong_scope", VARS(GVAR(0x500)), TEXT(LDV(LDLS, 0x500, 1),
		RET(1)), REJECT(0, "unknown variable") },
	{ .name = "reject_unknown_builtin", TEXT(LDV(LDGS, 0x1ff, 1), RET(1)),
		REJECT(0, "unknown variable") },
	{ .name = "reject_unknown_builtin_array", TEXT(DIF_INSTR_LDA(DIF_OP_LDGA, 3, 0, 1),
		RET(1)), REJECT(0, "unknown variable") },
	{ .name = "reject_store_builtin", TEXT(STV(STGS, DIF_VAR_PID, 1), RET(0)),
		REJECT(0, "cannot write to a built-in variable") },
	{ .name = "reject_scalar_id_in_array_range", TEXT(LDV(LDGS, 0x80, 1), RET(1)),
		REJECT(0, "invalid variable") },
	{ .name = "reject_subroutine", TEXT(DIF_INSTR_CALL(DIF_SUBR_MAX + 1, 1), RET(1)),
		REJECT(0, "invalid subroutine") },
	{ .name = "reject_tuple_type", TEXT(DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, 2, 0, 1), RET(0)),
		REJECT(0, "invalid tuple type") },
	{ .name = "reject_xlate", TEXT(DIF_INSTR_XLATE(DIF_OP_XLATE, 0, 1), RET(1)),
		REJECT(0, "translator not resolved") },
	{ .name = "reject_xlarg", TEXT(DIF_INSTR_XLATE(DIF_OP_XLARG, 0, 1), RET(1)),
		REJECT(0, "translator not resolved") },
};

const uint32_t dif_nvectors = sizeof(dif_vectors) / sizeof(dif_vectors[0]);
