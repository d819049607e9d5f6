// SPDX-License-Identifier: MIT
/*
 * dif_emulate.c - the DIF interpreter (illumos dtrace_dif_emulate).
 *
 * Freestanding C11 shared with dtrace.ko (see dif_compat.h): no libc, no
 * floating point, no recursion, no VLAs, all state in the dif_ctx_t.
 *
 *   dif_emulate(ctx)          (subroutines: dif_subr.c; shared helpers: dif_impl.h)
 *     while pc < len and no fault:
 *        ALU / cmp+branch (cc_n cc_z cc_v cc_c) / setx sets / mov not / ret
 *        loads ── DTrace-owned memory (strtab, allocated scratch): direct
 *              └─ anything else: ctx->ops->load()  (kernel or user space)
 *        variables: built-ins via ops->builtin/getarg, scalars in
 *                   ctx->globals / ctx->locals
 *        tuple stack (pushtr pushtv popts flushts) ─► call subr
 *     fault: code, pc * 4, illegal value; stop.
 *
 * Implemented: every ALU op, cmp/tst/scmp, all branches, ld*, uld*, rld*
 * (outside DTrace-owned memory only with ctx->kernel_priv, else KPRIV),
 * st{b,h,w,x} and copys (into scratch or variable storage only), allocs,
 * setx, sets, mov, not, nop, ret, ldga for args/regs/uregs, ldgs/stgs and
 * ldls/stls (by value, and by reference through ctx->grefs/lrefs), ldts/stts
 * (thread-locals) and ldgaa/stgaa/ldtaa/sttaa (associative arrays) through
 * the dynamic-variable store (dif_dstate.c), pushtr, pushtv, popts, flushts,
 * and call for every subroutine that has a meaning on Linux: rand strlen
 * strchr strrchr strstr strtok substr index rindex strjoin lltostr strtoll
 * toupper tolower basename dirname cleanpath htons htonl htonll ntohs ntohl
 * ntohll inet_ntoa inet_ntoa6 inet_ntop alloca bcopy copyin copyinto
 * copyinstr copyout copyoutstr speculation progenyof getmajor getminor json,
 * rw_read_held rw_write_held rw_iswriter (a Linux queued rwlock's word),
 * mutex_owned mutex_owner mutex_type_adaptive mutex_type_spin (a Linux
 * struct mutex's owner word, where ctx->mutex_owner says), and d_path when
 * the environment provides ops->d_path (a kernel engine).
 *
 * Fault with DTRACEFLT_ILLOP (illval: the subroutine number or variable id):
 *   mutex_* -- when the context does not know struct mutex's layout;
 *   msgsize msgdsize ddi_pathname getf -- Solaris STREAMS, devinfo, file_t;
 *   d_path, copyout(str), speculation, progenyof -- when the op is NULL;
 *   ldta and ldga of a user array (id >= 0x80): no D construct emits them;
 *   xlate xlarg (the validator rejects them anyway).
 *
 * Differences from illumos, on purpose: sll/srl/sra use the shift count
 * modulo 64 (C leaves larger shifts undefined); INT64_MIN / -1 gives
 * INT64_MIN and INT64_MIN % -1 gives 0 (the hardware would trap); strings
 * compare as unsigned bytes.
 */
#include "dif_dstate.h"
#include "dif_impl.h"
#include "dif_isa.h"

/* Record the first fault only. */
void dif_fault(dif_ctx_t *c, uint16_t code, uint64_t illval)
{
	if (!c->fault) {
		c->fault = code;
		c->illval = illval;
	}
}

static bool in_range(uint64_t addr, uint64_t size, uint64_t base, uint64_t len)
{
	return addr >= base && size <= len && addr - base <= len - size;
}

/*
 * Memory that may be written (illumos dtrace_canstore): allocated scratch,
 * by-ref variable storage, the values of dynamic variables.
 */
uint8_t *dif_writable(const dif_ctx_t *c, uint64_t addr, uint64_t size)
{
	if (c->scratch && in_range(addr, size, (uint64_t)(uintptr_t)c->scratch, c->scratch_used))
		return (uint8_t *)c->scratch + (addr - (uint64_t)(uintptr_t)c->scratch);
	if (c->varmem && in_range(addr, size, (uint64_t)(uintptr_t)c->varmem, c->varmem_size))
		return c->varmem + (addr - (uint64_t)(uintptr_t)c->varmem);
	if (c->dstate)
		return dif_dvar_owned(c->dstate, addr, size);
	return NULL;
}

/*
 * DTrace-owned memory that may be read: the writable kinds, the string
 * table and strtok()'s copy.
 */
const uint8_t *dif_owned(const dif_ctx_t *c, uint64_t addr, uint64_t size)
{
	const dif_difo_t *dp = c->difo;
	const uint8_t *p = dif_writable(c, addr, size);

	if (p)
		return p;
	if (dp->strtab && in_range(addr, size, (uint64_t)(uintptr_t)dp->strtab, dp->strlen))
		return (const uint8_t *)dp->strtab + (addr - (uint64_t)(uintptr_t)dp->strtab);
	if (c->strtok_buf &&
	    in_range(addr, size, (uint64_t)(uintptr_t)c->strtok_buf, c->strsize))
		return (const uint8_t *)c->strtok_buf + (addr - (uint64_t)(uintptr_t)c->strtok_buf);
	return NULL;
}

union dif_word {
	uint8_t b[8];
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
};

static uint64_t read_native(const uint8_t *p, uint32_t size)
{
	union dif_word w = {.u64 = 0};

	for (uint32_t i = 0; i < size; i++)
		w.b[i] = p[i];
	switch (size) {
	case 1: return w.u8;
	case 2: return w.u16;
	case 4: return w.u32;
	default: return w.u64;
	}
}

static void write_native(uint8_t *p, uint64_t v, uint32_t size)
{
	union dif_word w;

	switch (size) {
	case 1: w.u8 = (uint8_t)v; break;
	case 2: w.u16 = (uint16_t)v; break;
	case 4: w.u32 = (uint32_t)v; break;
	default: w.u64 = v; break;
	}
	for (uint32_t i = 0; i < size; i++)
		p[i] = w.b[i];
}

/*
 * A load of size bytes: DTrace-owned memory directly, anything else through
 * the environment. Kernel loads check alignment first (illumos
 * DTRACE_LOADFUNC). Returns 0 once a fault is pending.
 */
uint64_t dif_load(dif_ctx_t *c, uint64_t addr, uint32_t size, enum dif_space sp)
{
	const uint8_t *p;
	uint16_t f = 0;
	uint64_t v;

	if (c->fault)
		return 0;
	if (sp == DIF_SPACE_KERNEL) {
		if (addr & (size - 1)) {
			dif_fault(c, DTRACEFLT_BADALIGN, addr);
			return 0;
		}
		p = dif_owned(c, addr, size);
		if (p)
			return read_native(p, size);
	}
	v = c->ops->load(c->env, addr, size, sp, &f);
	if (f) {
		dif_fault(c, f, addr);
		return 0;
	}
	return v;
}

/* rld*: DTrace-owned memory, or any kernel memory with kernel privilege. */
static uint64_t dif_rload(dif_ctx_t *c, uint64_t addr, uint32_t size)
{
	if (!dif_owned(c, addr, size) && !c->kernel_priv) {
		dif_fault(c, DTRACEFLT_KPRIV, addr);
		return 0;
	}
	return dif_load(c, addr, size, DIF_SPACE_KERNEL);
}

uint8_t dif_ld8(dif_ctx_t *c, uint64_t addr)
{
	return (uint8_t)dif_load(c, addr, 1, DIF_SPACE_KERNEL);
}

static void dif_store(dif_ctx_t *c, uint64_t addr, uint64_t v, uint32_t size)
{
	uint8_t *p = dif_writable(c, addr, size);

	if (!p) {
		dif_fault(c, DTRACEFLT_BADADDR, addr);
		return;
	}
	if (addr & (size - 1)) {
		dif_fault(c, DTRACEFLT_BADALIGN, addr);
		return;
	}
	write_native(p, v, size);
}

/* Length of the string at s, at most max (illumos dtrace_strlen). */
uint64_t dif_strlen(dif_ctx_t *c, uint64_t s, uint64_t max)
{
	uint64_t n = 0;

	while (n < max && dif_ld8(c, s + n) != '\0')
		n++;
	return n;
}

/* illumos dtrace_strncmp: a NULL string compares as "". */
int dif_strncmp(dif_ctx_t *c, uint64_t s1, uint64_t s2, uint64_t limit)
{
	uint8_t c1, c2;

	if (s1 == s2 || limit == 0)
		return 0;
	do {
		c1 = s1 ? dif_ld8(c, s1++) : 0;
		c2 = s2 ? dif_ld8(c, s2++) : 0;
		if (c1 != c2)
			return (int)c1 - (int)c2;
	} while (--limit && c1 != '\0' && !c->fault);
	return 0;
}

/* Allocate size bytes of scratch, 8-byte aligned and zeroed; NOSCRATCH if full. */
char *dif_scratch_alloc(dif_ctx_t *c, uint64_t size)
{
	uint64_t start = (c->scratch_used + 7) & ~(uint64_t)7;
	char *p;

	if (!c->scratch || start < c->scratch_used || start > c->scratch_size ||
	    size > c->scratch_size - start) {
		dif_fault(c, DTRACEFLT_NOSCRATCH, 0);
		return NULL;
	}
	c->scratch_used = start + size;
	p = c->scratch + start;
	for (uint64_t i = 0; i < size; i++)
		p[i] = 0;
	return p;
}

uint64_t dif_ptr2addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static uint64_t dif_builtin(dif_ctx_t *c, uint32_t id, uint64_t ndx)
{
	uint16_t f = 0;
	uint64_t v;

	if (id == DIF_VAR_ARGS || (id >= DIF_VAR_ARG0 && id <= DIF_VAR_ARG9)) {
		uint64_t n = id == DIF_VAR_ARGS ? ndx : id - DIF_VAR_ARG0;

		if (n < c->nargs)
			return c->args[n];
		v = c->ops->getarg(c->env, n, &f);
	} else
		v = c->ops->builtin(c->env, id, ndx, &f);
	if (f) {
		dif_fault(c, f, id);
		return 0;
	}
	return v;
}

/* The variable-table entry of user variable id in scope, or NULL. */
static const dtrace_difv_t *var_find(const dif_ctx_t *c, uint32_t id, uint8_t scope)
{
	const dif_difo_t *dp = c->difo;

	for (uint32_t i = 0; i < dp->varlen; i++)
		if (dp->vartab[i].dtdv_id == id && dp->vartab[i].dtdv_scope == scope)
			return &dp->vartab[i];
	return NULL;
}

static bool var_byref(const dtrace_difv_t *v)
{
	return v && (v->dtdv_type.dtdt_kind == DIF_TYPE_STRING ||
		     (v->dtdv_type.dtdt_flags & DIF_TF_BYREF));
}

/* Bytes a by-ref value of v occupies: strsize for strings, else its type size. */
static uint64_t var_refsize(const dtrace_difv_t *v, uint64_t strsize)
{
	if (v->dtdv_type.dtdt_kind == DIF_TYPE_STRING)
		return strsize;
	return v->dtdv_type.dtdt_size ? v->dtdv_type.dtdt_size : 1;
}

/*
 * Copy the by-ref value at src into dst (cap bytes): a string up to its NUL
 * and always terminated, anything else cap bytes (illumos dtrace_vcopy).
 */
static void var_copyin(dif_ctx_t *c, uint8_t *dst, uint64_t src, const dtrace_difv_t *v,
		       uint64_t cap)
{
	if (v->dtdv_type.dtdt_kind == DIF_TYPE_STRING) {
		uint64_t i;

		for (i = 0; i + 1 < cap && !c->fault; i++)
			if ((dst[i] = dif_ld8(c, src + i)) == '\0')
				return;
		dst[i] = '\0';
		return;
	}
	for (uint64_t i = 0; i < cap && !c->fault; i++)
		dst[i] = dif_ld8(c, src + i);
}

/* Storage of user scalar id in scope (globals or locals), or NULL with ILLOP. */
static uint64_t *var_slot(dif_ctx_t *c, uint32_t id, uint8_t scope)
{
	uint64_t *base = scope == DIFV_SCOPE_GLOBAL ? c->globals : c->locals;
	uint32_t n = scope == DIFV_SCOPE_GLOBAL ? c->nglobals : c->nlocals;
	uint32_t ndx = id - DIF_VAR_OTHER_UBASE;

	if (!base || id < DIF_VAR_OTHER_UBASE || ndx >= n) {
		dif_fault(c, DTRACEFLT_ILLOP, id);
		return NULL;
	}
	return &base[ndx];
}

/* The buffer of by-ref scalar id in scope, or NULL with ILLOP. */
static dif_varbuf_t *var_buf(dif_ctx_t *c, uint32_t id, uint8_t scope)
{
	dif_varbuf_t *base = scope == DIFV_SCOPE_GLOBAL ? c->grefs : c->lrefs;
	uint32_t n = scope == DIFV_SCOPE_GLOBAL ? c->nglobals : c->nlocals;
	uint32_t ndx = id - DIF_VAR_OTHER_UBASE;
	dif_varbuf_t *b;

	if (!base || id < DIF_VAR_OTHER_UBASE || ndx >= n || !base[ndx].data || !base[ndx].size) {
		dif_fault(c, DTRACEFLT_ILLOP, id);
		return NULL;
	}
	b = &base[ndx];
	if (!c->varmem || !in_range(dif_ptr2addr(b->data), DIF_VARBUF_HDR + b->size,
				    dif_ptr2addr(c->varmem), c->varmem_size)) {
		dif_fault(c, DTRACEFLT_ILLOP, id);
		return NULL;
	}
	return b;
}

/* ldgs/ldls of a user scalar: its value, or the address of a by-ref value. */
static uint64_t scalar_load(dif_ctx_t *c, uint32_t id, uint8_t scope)
{
	if (var_byref(var_find(c, id, scope))) {
		dif_varbuf_t *b = var_buf(c, id, scope);

		if (!b || b->data[0] == DIF_VARBUF_NULL)
			return 0;
		return dif_ptr2addr(b->data + DIF_VARBUF_HDR);
	} else {
		uint64_t *slot = var_slot(c, id, scope);

		return slot ? *slot : 0;
	}
}

/* stgs/stls: store the value, or copy the by-ref value in (0 makes it NULL). */
static void scalar_store(dif_ctx_t *c, uint32_t id, uint8_t scope, uint64_t val, uint64_t strsize)
{
	const dtrace_difv_t *v = var_find(c, id, scope);

	if (var_byref(v)) {
		dif_varbuf_t *b = var_buf(c, id, scope);
		uint64_t cap;

		if (!b)
			return;
		if (val == 0) {
			b->data[0] = DIF_VARBUF_NULL;
			return;
		}
		cap = var_refsize(v, strsize);
		if (cap > b->size)
			cap = b->size;
		var_copyin(c, b->data + DIF_VARBUF_HDR, val, v, cap);
		if (!c->fault)
			b->data[0] = 0;
	} else {
		uint64_t *slot = var_slot(c, id, scope);

		if (slot)
			*slot = val;
	}
}

static uint8_t key_read(void *arg, uint64_t addr)
{
	return dif_ld8((dif_ctx_t *)arg, addr);
}

/*
 * Thread-locals and associative arrays (illumos dtrace_dynvar): the key is
 * the tuple (associative arrays), the variable id, the thread key (thread
 * scope). A missing entry loads as 0; storing 0 deletes; a store the
 * store cannot hold is dropped and counted there.
 */
static void dvar_op(dif_ctx_t *c, uint32_t op, uint32_t id, uint32_t rd, uint64_t strsize)
{
	bool thread =
		op == DIF_OP_LDTS || op == DIF_OP_STTS || op == DIF_OP_LDTAA || op == DIF_OP_STTAA;
	bool assoc = op == DIF_OP_LDGAA || op == DIF_OP_STGAA || op == DIF_OP_LDTAA ||
		     op == DIF_OP_STTAA;
	bool store = op == DIF_OP_STTS || op == DIF_OP_STGAA || op == DIF_OP_STTAA;
	uint8_t scope = thread ? DIFV_SCOPE_THREAD : DIFV_SCOPE_GLOBAL;
	const dtrace_difv_t *v = var_find(c, id, scope);
	dif_tuple_t keys[DIF_DVAR_MAXKEYS];
	dif_dvar_key_t k = {keys, 0, scope, key_read, c};
	uint64_t kbytes = 0, vsize;
	uint32_t n;
	uint8_t *val;

	if (!c->dstate || !v) {
		dif_fault(c, DTRACEFLT_ILLOP, id);
		return;
	}
	if (assoc)
		for (uint32_t i = 0; i < c->ttop; i++) {
			keys[k.nkeys++] = c->tupregs[i];
			kbytes += c->tupregs[i].size;
		}
	keys[k.nkeys].value = id;
	keys[k.nkeys++].size = 0;
	if (thread) {
		keys[k.nkeys].value = c->thread_key;
		keys[k.nkeys++].size = 0;
	}
	if (kbytes > c->dstate->chunksize) { /* cannot exist, cannot be stored */
		if (store && c->regs[rd])
			c->dstate->drops++;
		else if (!store)
			c->regs[rd] = 0;
		return;
	}
	/* Read every by-ref key byte once, so that a bad key faults here. */
	for (uint32_t i = 0; i < k.nkeys && !c->fault; i++)
		for (uint64_t j = 0; j < keys[i].size && !c->fault; j++)
			(void)dif_ld8(c, keys[i].value + j);
	if (c->fault)
		return;
	if (!store) {
		n = dif_dvar_find(c->dstate, &k);
		val = n ? dif_dvar_value(c->dstate, n, NULL) : NULL;
		if (!val)
			c->regs[rd] = 0;
		else if (var_byref(v))
			c->regs[rd] = dif_ptr2addr(val);
		else
			c->regs[rd] = read_native(val, 8);
		return;
	}
	if (c->regs[rd] == 0) {
		dif_dvar_delete(c->dstate, &k);
		return;
	}
	vsize = var_byref(v) ? var_refsize(v, strsize) : 8;
	n = dif_dvar_get(c->dstate, &k, vsize);
	val = n ? dif_dvar_value(c->dstate, n, NULL) : NULL;
	if (!val)
		return; /* dropped */
	if (var_byref(v))
		var_copyin(c, val, c->regs[rd], v, vsize);
	else
		write_native(val, c->regs[rd], 8);
}

static const uint32_t load_size[] = {1, 2, 4, 1, 2, 4, 8}; /* sb sh sw ub uh uw x */

static uint64_t sign_extend(uint64_t v, uint32_t size)
{
	switch (size) {
	case 1: return (uint64_t)(int64_t)(int8_t)v;
	case 2: return (uint64_t)(int64_t)(int16_t)v;
	case 4: return (uint64_t)(int64_t)(int32_t)v;
	default: return v;
	}
}

/*
 * ld*, uld* and rld*: each family is sb sh sw ub uh uw x in opcode order;
 * they differ only in which memory they read (kernel, user, restricted).
 */
static uint64_t dif_load_op(dif_ctx_t *c, uint32_t op, uint64_t addr)
{
	uint32_t k, sz;
	uint64_t v;

	if (op >= DIF_OP_RLDSB && op <= DIF_OP_RLDX) {
		k = op - DIF_OP_RLDSB;
		v = dif_rload(c, addr, load_size[k]);
	} else if (op >= DIF_OP_ULDSB && op <= DIF_OP_ULDX) {
		k = op - DIF_OP_ULDSB;
		v = dif_load(c, addr, load_size[k], DIF_SPACE_USER);
	} else {
		k = op - DIF_OP_LDSB;
		v = dif_load(c, addr, load_size[k], DIF_SPACE_KERNEL);
	}
	sz = load_size[k];
	return k < 3 ? sign_extend(v, sz) : v;
}

/*
 * Every opcode of dif_ops.def has its case in the switch below: it is over
 * enum dif_opcode (dif_isa.h), and -Wswitch-enum, an error here, names any
 * opcode the list has and the switch lacks (the default covers only the
 * bytes that are no opcode).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
int dif_emulate(dif_ctx_t *c)
{
	const dif_difo_t *dp = c->difo;
	uint64_t *regs = c->regs;
	uint64_t strsize = c->strsize ? c->strsize : DIF_STRSIZE_DEFAULT;
	const dif_instr_t *text;
	uint32_t pc = 0;
	uint8_t cc_n = 0, cc_z = 0, cc_v = 0, cc_c = 0;

	/*
	 * The entry is part of every probe firing's cost (illumos
	 * dtrace_dif_emulate() sets only %r0): %r0 reads 0, the tuple stack
	 * is emptied (nothing reads above ttop: dif_subr() checks each
	 * subroutine's arguments against it), the result cleared. The other
	 * registers are not: the validator lets no DIF object write %r0, and
	 * what the compiler emits writes a register before reading it. The
	 * loop does not bound pc either: validated, every branch is forward
	 * to an instruction and the last instruction is ret, so pc cannot
	 * leave the text.
	 */
	regs[DIF_REG_R0] = 0;
	c->ttop = 0;
	c->fault = 0;
	c->rval = 0;
	text = dp->text;

	for (;;) {
		dif_instr_t in = text[pc];
		uint32_t op = DIF_INSTR_OP(in), r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
		uint32_t rd = DIF_INSTR_RD(in), cur = pc++;

		/*
		 * The instructions most DIF runs (predicates, argument and
		 * variable reads) first, in a small switch: without jump tables
		 * (the kernel's retpoline builds have none), each case of the
		 * full switch below is a search of about seven compares, which
		 * an emulated CPU (and a mispredicting real one) pays on every
		 * instruction. Those that cannot fault skip the fault check.
		 */
		switch (op) {
		case DIF_OP_LDGS: {
			uint32_t id = DIF_INSTR_VAR(in);

			/* argN: no call, no fault (dif_builtin() otherwise). */
			if (id - DIF_VAR_ARG0 < c->nargs && id <= DIF_VAR_ARG9) {
				regs[rd] = c->args[id - DIF_VAR_ARG0];
				continue;
			}
			if (id < DIF_VAR_OTHER_UBASE)
				regs[rd] = dif_builtin(c, id, 0);
			else
				regs[rd] = scalar_load(c, id, DIFV_SCOPE_GLOBAL);
			goto check;
		}
		case DIF_OP_SETX: regs[rd] = dp->inttab[DIF_INSTR_INTEGER(in)]; continue;
		case DIF_OP_MOV: regs[rd] = regs[r1]; continue;
		case DIF_OP_CMP: {
			int64_t r = (int64_t)(regs[r1] - regs[r2]);

			cc_n = r < 0;
			cc_z = r == 0;
			cc_v = 0;
			cc_c = regs[r1] < regs[r2];
			continue;
		}
		case DIF_OP_TST:
			cc_n = cc_v = cc_c = 0;
			cc_z = regs[r1] == 0;
			continue;
		case DIF_OP_BA: pc = DIF_INSTR_LABEL(in); continue;
		case DIF_OP_BE:
			if (cc_z)
				pc = DIF_INSTR_LABEL(in);
			continue;
		case DIF_OP_BNE:
			if (!cc_z)
				pc = DIF_INSTR_LABEL(in);
			continue;
		case DIF_OP_NOP: continue;
		case DIF_OP_RET:
			c->rval = regs[rd];
			return 0;
		default: break;
		}

		switch ((enum dif_opcode)op) {
		case DIF_OP_LDGS:
		case DIF_OP_SETX:
		case DIF_OP_MOV:
		case DIF_OP_CMP:
		case DIF_OP_TST:
		case DIF_OP_BA:
		case DIF_OP_BE:
		case DIF_OP_BNE:
		case DIF_OP_NOP:
		case DIF_OP_RET: break; /* the switch above */
		case DIF_OP_OR: regs[rd] = regs[r1] | regs[r2]; break;
		case DIF_OP_XOR: regs[rd] = regs[r1] ^ regs[r2]; break;
		case DIF_OP_AND: regs[rd] = regs[r1] & regs[r2]; break;
		case DIF_OP_SLL: regs[rd] = regs[r1] << (regs[r2] & 63); break;
		case DIF_OP_SRL: regs[rd] = regs[r1] >> (regs[r2] & 63); break;
		case DIF_OP_SRA: regs[rd] = (uint64_t)((int64_t)regs[r1] >> (regs[r2] & 63)); break;
		case DIF_OP_SUB: regs[rd] = regs[r1] - regs[r2]; break;
		case DIF_OP_ADD: regs[rd] = regs[r1] + regs[r2]; break;
		case DIF_OP_MUL: regs[rd] = regs[r1] * regs[r2]; break;
		case DIF_OP_SDIV:
		case DIF_OP_SREM: {
			int64_t a = (int64_t)regs[r1], b = (int64_t)regs[r2];
			bool neg = false;
			uint64_t ua, ub, q;

			if (b == 0) {
				dif_fault(c, DTRACEFLT_DIVZERO, 0);
				break;
			}
			/* Unsigned magnitudes: no INT64_MIN / -1 trap, no libgcc call. */
			ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
			ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
			if (op == DIF_OP_SDIV) {
				q = DIF_UDIV64(ua, ub);
				neg = (a < 0) != (b < 0);
			} else {
				q = DIF_UREM64(ua, ub);
				neg = a < 0;
			}
			regs[rd] = neg ? 0 - q : q;
			break;
		}
		case DIF_OP_UDIV:
			if (regs[r2] == 0)
				dif_fault(c, DTRACEFLT_DIVZERO, 0);
			else
				regs[rd] = DIF_UDIV64(regs[r1], regs[r2]);
			break;
		case DIF_OP_UREM:
			if (regs[r2] == 0)
				dif_fault(c, DTRACEFLT_DIVZERO, 0);
			else
				regs[rd] = DIF_UREM64(regs[r1], regs[r2]);
			break;
		case DIF_OP_NOT: regs[rd] = ~regs[r1]; break;
		case DIF_OP_SCMP: {
			int r = dif_strncmp(c, regs[r1], regs[r2], strsize);

			cc_n = r < 0;
			cc_z = r == 0;
			cc_v = cc_c = 0;
			break;
		}
		case DIF_OP_BG:
			if ((cc_z | (cc_n ^ cc_v)) == 0)
				pc = DIF_INSTR_LABEL(in);
			break;
		case DIF_OP_BGU:
			if ((cc_c | cc_z) == 0)
				pc = DIF_INSTR_LABEL(in);
			break;
		case DIF_OP_BGE:
			if ((cc_n ^ cc_v) == 0)
				pc = DIF_INSTR_LABEL(in);
			break;
		case DIF_OP_BGEU:
			if (cc_c == 0)
				pc = DIF_INSTR_LABEL(in);
			break;
		case DIF_OP_BL:
			if (cc_n ^ cc_v)
				pc = DIF_INSTR_LABEL(in);
			break;
		case DIF_OP_BLU:
			if (cc_c)
				pc = DIF_INSTR_LABEL(in);
			break;
		case DIF_OP_BLE:
			if (cc_z | (cc_n ^ cc_v))
				pc = DIF_INSTR_LABEL(in);
			break;
		case DIF_OP_BLEU:
			if (cc_c | cc_z)
				pc = DIF_INSTR_LABEL(in);
			break;
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
		case DIF_OP_RLDX: regs[rd] = dif_load_op(c, op, regs[r1]); break;
		case DIF_OP_STB: dif_store(c, regs[rd], regs[r1], 1); break;
		case DIF_OP_STH: dif_store(c, regs[rd], regs[r1], 2); break;
		case DIF_OP_STW: dif_store(c, regs[rd], regs[r1], 4); break;
		case DIF_OP_STX: dif_store(c, regs[rd], regs[r1], 8); break;
		case DIF_OP_SETS: regs[rd] = dif_ptr2addr(dp->strtab + DIF_INSTR_STRING(in)); break;
		case DIF_OP_LDGA:
			if (r1 < DIF_VAR_ARRAY_UBASE)
				regs[rd] = dif_builtin(c, r1, regs[r2]);
			else
				dif_fault(c, DTRACEFLT_ILLOP, r1);
			break;
		case DIF_OP_LDLS:
			regs[rd] = scalar_load(c, DIF_INSTR_VAR(in), DIFV_SCOPE_LOCAL);
			break;
		case DIF_OP_STGS:
			scalar_store(c, DIF_INSTR_VAR(in), DIFV_SCOPE_GLOBAL, regs[rd], strsize);
			break;
		case DIF_OP_STLS:
			scalar_store(c, DIF_INSTR_VAR(in), DIFV_SCOPE_LOCAL, regs[rd], strsize);
			break;
		case DIF_OP_LDTS:
		case DIF_OP_STTS:
		case DIF_OP_LDGAA:
		case DIF_OP_LDTAA:
		case DIF_OP_STGAA:
		case DIF_OP_STTAA: dvar_op(c, op, DIF_INSTR_VAR(in), rd, strsize); break;
		case DIF_OP_PUSHTR:
		case DIF_OP_PUSHTV: {
			uint64_t size = 0;

			if (c->ttop == DIF_DTR_NREGS) {
				dif_fault(c, DTRACEFLT_TUPOFLOW, 0);
				break;
			}
			if (op == DIF_OP_PUSHTR && r1 == DIF_TYPE_STRING) {
				uint64_t max = regs[r2] && regs[r2] < strsize ? regs[r2] : strsize;

				size = dif_strlen(c, regs[rd], max) + 1;
			} else if (op == DIF_OP_PUSHTR) {
				size = regs[r2];
			}
			c->tupregs[c->ttop].value = regs[rd];
			c->tupregs[c->ttop].size = size;
			c->ttop++;
			break;
		}
		case DIF_OP_POPTS:
			if (c->ttop)
				c->ttop--;
			break;
		case DIF_OP_FLUSHTS: c->ttop = 0; break;
		case DIF_OP_CALL: regs[rd] = dif_subr(c, DIF_INSTR_SUBR(in), strsize); break;
		case DIF_OP_ALLOCS: regs[rd] = dif_ptr2addr(dif_scratch_alloc(c, regs[r1])); break;
		case DIF_OP_COPYS: {
			uint8_t *p = dif_writable(c, regs[rd], regs[r2]);

			if (!p) {
				dif_fault(c, DTRACEFLT_BADADDR, regs[rd]);
				break;
			}
			for (uint64_t i = 0; i < regs[r2] && !c->fault; i++)
				p[i] = dif_ld8(c, regs[r1] + i);
			break;
		}
		case DIF_OP_LDTA: /* no D construct emits it (illumos: unimplemented) */
		case DIF_OP_XLATE:
		case DIF_OP_XLARG:
		default: dif_fault(c, DTRACEFLT_ILLOP, 0); break;
		}
check:
		if (c->fault) {
			c->fault_pc = cur * 4;
			return c->fault;
		}
	}
}
#pragma GCC diagnostic pop
