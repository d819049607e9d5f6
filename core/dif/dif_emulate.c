// SPDX-License-Identifier: MIT
/*
 * dif_emulate.c - the DIF interpreter (illumos dtrace_dif_emulate).
 *
 * Freestanding C11 shared with dtrace.ko (see dif_compat.h): no libc, no
 * floating point, no recursion, no VLAs, all state in the dif_ctx_t.
 *
 *   dif_emulate(ctx)
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
 * st{b,h,w,x} and copys (into allocated scratch only), allocs, setx, sets,
 * mov, not, nop, ret, ldga for args/regs/uregs, ldgs (built-ins and user
 * scalars), stgs, ldls, stls, pushtr, pushtv, popts, flushts, and call for:
 * strlen strchr strrchr strstr substr index rindex strjoin lltostr toupper
 * tolower basename dirname htons htonl htonll ntohs ntohl ntohll alloca
 * bcopy copyinstr.
 *
 * Not yet implemented -- each faults with DTRACEFLT_ILLOP (illval 0, or the
 * variable id / subroutine number):
 *   opcodes:     ldta ldts stts (thread-locals), ldgaa ldtaa stgaa sttaa
 *                (associative arrays), ldga of a user array (id >= 0x80),
 *                xlate xlarg (the validator rejects them anyway);
 *   variables:   ldgs/stgs/ldls/stls of a by-reference variable (strings and
 *                DIF_TF_BYREF types: they need dynamic variable storage);
 *   subroutines: rand mutex_owned mutex_owner mutex_type_adaptive
 *                mutex_type_spin rw_read_held rw_write_held rw_iswriter
 *                copyin speculation progenyof copyout copyoutstr copyinto
 *                msgdsize msgsize getmajor getminor ddi_pathname cleanpath
 *                strtok inet_ntop inet_ntoa inet_ntoa6 getf json strtoll
 *                d_path.
 *
 * Differences from illumos, on purpose: sll/srl/sra use the shift count
 * modulo 64 (C leaves larger shifts undefined); INT64_MIN / -1 gives
 * INT64_MIN and INT64_MIN % -1 gives 0 (the hardware would trap); strings
 * compare as unsigned bytes.
 */
#include "dif_emulate.h"

/* Record the first fault only. */
static void dif_fault(dif_ctx_t *c, uint16_t code, uint64_t illval)
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

/* DTrace-owned memory that may be read: the string table and allocated scratch. */
static const uint8_t *owned(const dif_ctx_t *c, uint64_t addr, uint64_t size)
{
	const dif_difo_t *dp = c->difo;

	if (c->scratch && in_range(addr, size, (uint64_t)(uintptr_t)c->scratch, c->scratch_used))
		return (const uint8_t *)c->scratch + (addr - (uint64_t)(uintptr_t)c->scratch);
	if (dp->strtab && in_range(addr, size, (uint64_t)(uintptr_t)dp->strtab, dp->strlen))
		return (const uint8_t *)dp->strtab + (addr - (uint64_t)(uintptr_t)dp->strtab);
	return NULL;
}

/* Memory that may be written: allocated scratch only (illumos dtrace_canstore). */
static uint8_t *writable(const dif_ctx_t *c, uint64_t addr, uint64_t size)
{
	if (c->scratch && in_range(addr, size, (uint64_t)(uintptr_t)c->scratch, c->scratch_used))
		return (uint8_t *)c->scratch + (addr - (uint64_t)(uintptr_t)c->scratch);
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
static uint64_t dif_load(dif_ctx_t *c, uint64_t addr, uint32_t size, enum dif_space sp)
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
		p = owned(c, addr, size);
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
	if (!owned(c, addr, size) && !c->kernel_priv) {
		dif_fault(c, DTRACEFLT_KPRIV, addr);
		return 0;
	}
	return dif_load(c, addr, size, DIF_SPACE_KERNEL);
}

static uint8_t ld8(dif_ctx_t *c, uint64_t addr)
{
	return (uint8_t)dif_load(c, addr, 1, DIF_SPACE_KERNEL);
}

static void dif_store(dif_ctx_t *c, uint64_t addr, uint64_t v, uint32_t size)
{
	uint8_t *p = writable(c, addr, size);

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
static uint64_t dif_strlen(dif_ctx_t *c, uint64_t s, uint64_t max)
{
	uint64_t n = 0;

	while (n < max && ld8(c, s + n) != '\0')
		n++;
	return n;
}

/* illumos dtrace_strncmp: a NULL string compares as "". */
static int dif_strncmp(dif_ctx_t *c, uint64_t s1, uint64_t s2, uint64_t limit)
{
	uint8_t c1, c2;

	if (s1 == s2 || limit == 0)
		return 0;
	do {
		c1 = s1 ? ld8(c, s1++) : 0;
		c2 = s2 ? ld8(c, s2++) : 0;
		if (c1 != c2)
			return (int)c1 - (int)c2;
	} while (--limit && c1 != '\0' && !c->fault);
	return 0;
}

/* Allocate size bytes of scratch, 8-byte aligned and zeroed; NOSCRATCH if full. */
static char *scratch_alloc(dif_ctx_t *c, uint64_t size)
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

static uint64_t ptr2addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static uint64_t bswap16(uint64_t x)
{
	return ((x & 0xff) << 8) | ((x >> 8) & 0xff);
}

static uint64_t bswap32(uint64_t x)
{
	return (bswap16(x & 0xffff) << 16) | bswap16((x >> 16) & 0xffff);
}

static uint64_t bswap64(uint64_t x)
{
	return (bswap32(x & 0xffffffff) << 32) | bswap32(x >> 32);
}

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
	__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DIF_HTON(bits, x) ((uint64_t)(uint##bits##_t)(x))
#else
#define DIF_HTON(bits, x) bswap##bits((uint64_t)(uint##bits##_t)(x))
#endif

/* strstr, index, rindex (illumos semantics, Perl's quirks included). */
static uint64_t subr_index(dif_ctx_t *c, uint32_t subr, uint64_t strsize)
{
	uint64_t orig = c->tupregs[0].value, sub = c->tupregs[1].value;
	int64_t len = (int64_t)dif_strlen(c, orig, strsize);
	int64_t sublen = (int64_t)dif_strlen(c, sub, strsize);
	int64_t pos = 0, limit = len, inc = 1;
	uint64_t notfound = subr == DIF_SUBR_STRSTR ? 0 : (uint64_t)-1;

	if (c->fault)
		return 0;
	if (sublen == 0 && len == 0)
		return subr == DIF_SUBR_STRSTR ? orig : 0;
	if (subr != DIF_SUBR_STRSTR) {
		if (subr == DIF_SUBR_RINDEX) {
			limit = -1;
			pos = len;
			inc = -1;
		}
		if (c->ttop >= 3) {
			int64_t p = (int64_t)c->tupregs[2].value;

			if (subr == DIF_SUBR_RINDEX) {
				if (p < 0)
					return sublen == 0 ? 0 : notfound;
				if (p > len)
					p = len;
			} else {
				if (p < 0)
					p = 0;
				if (p >= len)
					return sublen == 0 ? (uint64_t)len : notfound;
			}
			pos = p;
		}
	}
	for (; pos != limit && !c->fault; pos += inc) {
		if (dif_strncmp(c, orig + (uint64_t)pos, sub, (uint64_t)sublen) == 0)
			return subr == DIF_SUBR_STRSTR ? orig + (uint64_t)pos : (uint64_t)pos;
	}
	return notfound;
}

static uint64_t subr_substr(dif_ctx_t *c, uint64_t size)
{
	uint64_t s = c->tupregs[0].value;
	int64_t index = (int64_t)c->tupregs[1].value;
	int64_t remaining = c->ttop > 2 ? (int64_t)c->tupregs[2].value : (int64_t)size;
	int64_t len = (int64_t)dif_strlen(c, s, size), i;
	char *d = scratch_alloc(c, size);

	if (!d || c->fault)
		return 0;
	if (index < 0) {
		index += len;
		if (index < 0 && index + remaining > 0) {
			remaining += index;
			index = 0;
		}
	}
	if (index >= len || index < 0)
		remaining = 0;
	else if (remaining < 0)
		remaining += len - index;
	else if (index + remaining > (int64_t)size)
		remaining = (int64_t)size - index;
	if (remaining > (int64_t)size - 1)
		remaining = (int64_t)size - 1;
	for (i = 0; i < remaining; i++)
		if ((d[i] = (char)ld8(c, s + (uint64_t)(index + i))) == '\0')
			break;
	d[i] = '\0';
	return ptr2addr(d);
}

static uint64_t subr_strjoin(dif_ctx_t *c, uint64_t size)
{
	uint64_t s1 = c->tupregs[0].value, s2 = c->tupregs[1].value, i = 0;
	char *d = scratch_alloc(c, size);

	if (!d)
		return 0;
	for (;;) {
		if (i >= size) {
			dif_fault(c, DTRACEFLT_NOSCRATCH, 0);
			return 0;
		}
		if ((d[i++] = (char)ld8(c, s1++)) == '\0') {
			i--;
			break;
		}
	}
	for (;;) {
		if (i >= size) {
			dif_fault(c, DTRACEFLT_NOSCRATCH, 0);
			return 0;
		}
		if ((d[i++] = (char)ld8(c, s2++)) == '\0')
			break;
	}
	/* Give back what the result does not use. */
	c->scratch_used = (uint64_t)(d - c->scratch) + i;
	return ptr2addr(d);
}

static uint64_t subr_lltostr(dif_ctx_t *c)
{
	const uint64_t size = 65; /* enough room for 2^64 in binary */
	int64_t i = (int64_t)c->tupregs[0].value;
	uint64_t base = 10, val, digit;
	char *d, *end;

	if (c->ttop > 1) {
		base = c->tupregs[1].value;
		if (base <= 1 || base > 36) {
			dif_fault(c, DTRACEFLT_ILLOP, base);
			return 0;
		}
	}
	d = scratch_alloc(c, size);
	if (!d)
		return 0;
	val = (base == 10 && i < 0) ? 0 - (uint64_t)i : (uint64_t)i;
	end = d + size - 1;
	for (*end-- = '\0'; val; val = DIF_UDIV64(val, base)) {
		digit = DIF_UREM64(val, base);
		*end-- = (char)(digit <= 9 ? '0' + digit : 'a' + (digit - 10));
	}
	if (i == 0 && base == 16)
		*end-- = '0';
	if (base == 16)
		*end-- = 'x';
	if (i == 0 || base == 8 || base == 16)
		*end-- = '0';
	if (i < 0 && base == 10)
		*end-- = '-';
	return ptr2addr(end + 1);
}

static uint64_t subr_case(dif_ctx_t *c, uint32_t subr, uint64_t size)
{
	uint64_t s = c->tupregs[0].value, i;
	char lower = subr == DIF_SUBR_TOUPPER ? 'a' : 'A';
	char upper = subr == DIF_SUBR_TOUPPER ? 'z' : 'Z';
	char convert = subr == DIF_SUBR_TOUPPER ? 'A' : 'a';
	char *d = scratch_alloc(c, size), ch;

	if (!d)
		return 0;
	for (i = 0; i < size - 1; i++) {
		if ((ch = (char)ld8(c, s + i)) == '\0')
			break;
		if (ch >= lower && ch <= upper)
			ch = (char)(convert + (ch - lower));
		d[i] = ch;
	}
	d[i] = '\0';
	return ptr2addr(d);
}

/* basename and dirname, as illumos (basename("/") == "/", dirname("a") == "."). */
static uint64_t subr_path(dif_ctx_t *c, uint32_t subr, uint64_t size)
{
	static const char dot[] = ".";
	uint64_t src = c->tupregs[0].value;
	int64_t len = (int64_t)dif_strlen(c, src, size), i, j, start, end;
	int64_t lastbase = -1, firstbase = -1, lastdir = -1;
	bool use_dot = false;
	char *d = scratch_alloc(c, size);

	if (!d || c->fault)
		return 0;
#define PATH_CH(k) (use_dot ? dot[k] : (char)ld8(c, src + (uint64_t)(k)))
	if (len == 0) {
		len = 1;
		use_dot = true;
	}
	for (i = len - 1; i >= 0; i--)
		if (PATH_CH(i) != '/')
			break;
	if (i >= 0)
		lastbase = i;
	for (; i >= 0; i--)
		if (PATH_CH(i) == '/')
			break;
	if (i >= 0)
		firstbase = i + 1;
	for (; i >= 0; i--)
		if (PATH_CH(i) != '/')
			break;
	if (i >= 0)
		lastdir = i;
	if (lastbase == -1)
		firstbase = lastbase = lastdir = 0; /* all slashes: "/" */
	if (firstbase == -1) {
		if (subr == DIF_SUBR_DIRNAME) {
			use_dot = true;
			lastdir = 0;
		} else {
			firstbase = 0;
		}
	}
	if (subr == DIF_SUBR_DIRNAME) {
		if (lastdir == -1)
			lastdir = 0;
		start = 0;
		end = lastdir;
	} else {
		start = firstbase;
		end = lastbase;
	}
	for (i = start, j = 0; i <= end && j < (int64_t)size - 1; i++, j++)
		d[j] = PATH_CH(i);
	d[j] = '\0';
#undef PATH_CH
	return ptr2addr(d);
}

static uint64_t subr_copyinstr(dif_ctx_t *c, uint64_t size)
{
	uint64_t addr = c->tupregs[0].value;
	uint16_t f = 0;
	char *d;

	if (c->ttop > 1 && c->tupregs[1].value < size)
		size = c->tupregs[1].value + 1;
	d = scratch_alloc(c, size);
	if (!d)
		return 0;
	c->ops->copystr(c->env, addr, d, size, DIF_SPACE_USER, &f);
	if (f) {
		dif_fault(c, f, addr);
		return 0;
	}
	d[size - 1] = '\0';
	return ptr2addr(d);
}

static uint64_t subr_bcopy(dif_ctx_t *c)
{
	uint64_t src = c->tupregs[0].value, dst = c->tupregs[1].value;
	uint64_t size = c->tupregs[2].value;
	uint8_t *p = writable(c, dst, size);

	if (!p) {
		dif_fault(c, DTRACEFLT_BADADDR, dst);
		return 0;
	}
	for (uint64_t i = 0; i < size && !c->fault; i++)
		p[i] = ld8(c, src + i);
	return 0;
}

/* Minimum number of tuple arguments of each implemented subroutine. */
static uint32_t subr_nargs(uint32_t subr)
{
	switch (subr) {
	case DIF_SUBR_STRCHR:
	case DIF_SUBR_STRRCHR:
	case DIF_SUBR_STRSTR:
	case DIF_SUBR_SUBSTR:
	case DIF_SUBR_INDEX:
	case DIF_SUBR_RINDEX:
	case DIF_SUBR_STRJOIN: return 2;
	case DIF_SUBR_BCOPY: return 3;
	default: return 1;
	}
}

static uint64_t dif_subr(dif_ctx_t *c, uint32_t subr, uint64_t strsize)
{
	if (c->ttop < subr_nargs(subr)) {
		dif_fault(c, DTRACEFLT_ILLOP, subr);
		return 0;
	}
	switch (subr) {
	case DIF_SUBR_STRLEN: return dif_strlen(c, c->tupregs[0].value, strsize);
	case DIF_SUBR_STRCHR:
	case DIF_SUBR_STRRCHR: {
		uint64_t addr = c->tupregs[0].value, rv = 0;
		uint64_t lim = dif_strlen(c, addr, strsize) + 1;
		uint8_t target = (uint8_t)c->tupregs[1].value, ch;

		if (lim > strsize)
			lim = strsize;
		for (uint64_t k = 0; k < lim && !c->fault; k++) {
			ch = ld8(c, addr + k);
			if (ch == target) {
				rv = addr + k;
				if (subr == DIF_SUBR_STRCHR)
					break;
			}
			if (ch == '\0')
				break;
		}
		return rv;
	}
	case DIF_SUBR_STRSTR:
	case DIF_SUBR_INDEX:
	case DIF_SUBR_RINDEX: return subr_index(c, subr, strsize);
	case DIF_SUBR_SUBSTR: return subr_substr(c, strsize);
	case DIF_SUBR_STRJOIN: return subr_strjoin(c, strsize);
	case DIF_SUBR_LLTOSTR: return subr_lltostr(c);
	case DIF_SUBR_TOUPPER:
	case DIF_SUBR_TOLOWER: return subr_case(c, subr, strsize);
	case DIF_SUBR_BASENAME:
	case DIF_SUBR_DIRNAME: return subr_path(c, subr, strsize);
	case DIF_SUBR_HTONS:
	case DIF_SUBR_NTOHS: return DIF_HTON(16, c->tupregs[0].value);
	case DIF_SUBR_HTONL:
	case DIF_SUBR_NTOHL: return DIF_HTON(32, c->tupregs[0].value);
	case DIF_SUBR_HTONLL:
	case DIF_SUBR_NTOHLL: return DIF_HTON(64, c->tupregs[0].value);
	case DIF_SUBR_ALLOCA: return ptr2addr(scratch_alloc(c, c->tupregs[0].value));
	case DIF_SUBR_BCOPY: return subr_bcopy(c);
	case DIF_SUBR_COPYINSTR: return subr_copyinstr(c, strsize);
	default: dif_fault(c, DTRACEFLT_ILLOP, subr); return 0;
	}
}

/* A built-in scalar (ldgs below DIF_VAR_OTHER_UBASE) or array element (ldga). */
static uint64_t dif_builtin(dif_ctx_t *c, uint32_t id, uint64_t ndx)
{
	uint16_t f = 0;
	uint64_t v;

	if (id == DIF_VAR_ARGS || (id >= DIF_VAR_ARG0 && id <= DIF_VAR_ARG9))
		v = c->ops->getarg(c->env, id == DIF_VAR_ARGS ? ndx : id - DIF_VAR_ARG0, &f);
	else
		v = c->ops->builtin(c->env, id, ndx, &f);
	if (f) {
		dif_fault(c, f, id);
		return 0;
	}
	return v;
}

/*
 * Storage of user scalar id in scope (globals or locals), or NULL with an
 * ILLOP fault: by-reference variables are not implemented yet.
 */
static uint64_t *var_slot(dif_ctx_t *c, uint32_t id, uint8_t scope)
{
	const dif_difo_t *dp = c->difo;
	uint64_t *base = scope == DIFV_SCOPE_GLOBAL ? c->globals : c->locals;
	uint32_t n = scope == DIFV_SCOPE_GLOBAL ? c->nglobals : c->nlocals;
	uint32_t ndx = id - DIF_VAR_OTHER_UBASE;

	for (uint32_t i = 0; i < dp->varlen; i++) {
		const dtrace_difv_t *v = &dp->vartab[i];

		if (v->dtdv_id != id || v->dtdv_scope != scope)
			continue;
		if (v->dtdv_type.dtdt_kind == DIF_TYPE_STRING ||
		    (v->dtdv_type.dtdt_flags & DIF_TF_BYREF))
			base = NULL;
		break;
	}
	if (!base || id < DIF_VAR_OTHER_UBASE || ndx >= n) {
		dif_fault(c, DTRACEFLT_ILLOP, id);
		return NULL;
	}
	return &base[ndx];
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

int dif_emulate(dif_ctx_t *c)
{
	const dif_difo_t *dp = c->difo;
	uint64_t *regs = c->regs;
	uint64_t strsize = c->strsize ? c->strsize : DIF_STRSIZE_DEFAULT;
	uint32_t pc = 0;
	uint8_t cc_n = 0, cc_z = 0, cc_v = 0, cc_c = 0;

	for (uint32_t i = 0; i < DIF_DIR_NREGS; i++)
		regs[i] = 0;
	for (uint32_t i = 0; i < DIF_DTR_NREGS; i++)
		c->tupregs[i].value = c->tupregs[i].size = 0;
	c->ttop = 0;
	c->fault = 0;
	c->fault_pc = 0;
	c->illval = 0;
	c->rval = 0;
	if (!dp || !dp->text || !c->ops) {
		c->fault = DTRACEFLT_ILLOP;
		return c->fault;
	}

	while (pc < dp->len && !c->fault) {
		dif_instr_t in = dp->text[pc];
		uint32_t op = DIF_INSTR_OP(in), r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
		uint32_t rd = DIF_INSTR_RD(in), cur = pc++;

		switch (op) {
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
		case DIF_OP_MOV: regs[rd] = regs[r1]; break;
		case DIF_OP_CMP: {
			int64_t r = (int64_t)(regs[r1] - regs[r2]);

			cc_n = r < 0;
			cc_z = r == 0;
			cc_v = 0;
			cc_c = regs[r1] < regs[r2];
			break;
		}
		case DIF_OP_TST:
			cc_n = cc_v = cc_c = 0;
			cc_z = regs[r1] == 0;
			break;
		case DIF_OP_SCMP: {
			int r = dif_strncmp(c, regs[r1], regs[r2], strsize);

			cc_n = r < 0;
			cc_z = r == 0;
			cc_v = cc_c = 0;
			break;
		}
		case DIF_OP_BA: pc = DIF_INSTR_LABEL(in); break;
		case DIF_OP_BE:
			if (cc_z)
				pc = DIF_INSTR_LABEL(in);
			break;
		case DIF_OP_BNE:
			if (!cc_z)
				pc = DIF_INSTR_LABEL(in);
			break;
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
		case DIF_OP_LDSB: case DIF_OP_LDSH: case DIF_OP_LDSW: case DIF_OP_LDUB:
		case DIF_OP_LDUH: case DIF_OP_LDUW: case DIF_OP_LDX:
		case DIF_OP_ULDSB: case DIF_OP_ULDSH: case DIF_OP_ULDSW: case DIF_OP_ULDUB:
		case DIF_OP_ULDUH: case DIF_OP_ULDUW: case DIF_OP_ULDX:
		case DIF_OP_RLDSB: case DIF_OP_RLDSH: case DIF_OP_RLDSW: case DIF_OP_RLDUB:
		case DIF_OP_RLDUH: case DIF_OP_RLDUW: case DIF_OP_RLDX:
			regs[rd] = dif_load_op(c, op, regs[r1]);
			break;
		case DIF_OP_STB: dif_store(c, regs[rd], regs[r1], 1); break;
		case DIF_OP_STH: dif_store(c, regs[rd], regs[r1], 2); break;
		case DIF_OP_STW: dif_store(c, regs[rd], regs[r1], 4); break;
		case DIF_OP_STX: dif_store(c, regs[rd], regs[r1], 8); break;
		case DIF_OP_RET:
			c->rval = regs[rd];
			pc = dp->len;
			break;
		case DIF_OP_NOP: break;
		case DIF_OP_SETX: regs[rd] = dp->inttab[DIF_INSTR_INTEGER(in)]; break;
		case DIF_OP_SETS: regs[rd] = ptr2addr(dp->strtab + DIF_INSTR_STRING(in)); break;
		case DIF_OP_LDGA:
			if (r1 < DIF_VAR_ARRAY_UBASE)
				regs[rd] = dif_builtin(c, r1, regs[r2]);
			else
				dif_fault(c, DTRACEFLT_ILLOP, r1);
			break;
		case DIF_OP_LDGS: {
			uint32_t id = DIF_INSTR_VAR(in);
			uint64_t *slot;

			if (id < DIF_VAR_OTHER_UBASE) {
				regs[rd] = dif_builtin(c, id, 0);
				break;
			}
			slot = var_slot(c, id, DIFV_SCOPE_GLOBAL);
			if (slot)
				regs[rd] = *slot;
			break;
		}
		case DIF_OP_STGS:
		case DIF_OP_STLS: {
			uint64_t *slot =
				var_slot(c, DIF_INSTR_VAR(in),
					 op == DIF_OP_STGS ? DIFV_SCOPE_GLOBAL : DIFV_SCOPE_LOCAL);

			if (slot)
				*slot = regs[rd];
			break;
		}
		case DIF_OP_LDLS: {
			uint64_t *slot = var_slot(c, DIF_INSTR_VAR(in), DIFV_SCOPE_LOCAL);

			if (slot)
				regs[rd] = *slot;
			break;
		}
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
		case DIF_OP_ALLOCS: regs[rd] = ptr2addr(scratch_alloc(c, regs[r1])); break;
		case DIF_OP_COPYS: {
			uint8_t *p = writable(c, regs[rd], regs[r2]);

			if (!p) {
				dif_fault(c, DTRACEFLT_BADADDR, regs[rd]);
				break;
			}
			for (uint64_t i = 0; i < regs[r2] && !c->fault; i++)
				p[i] = ld8(c, regs[r1] + i);
			break;
		}
		case DIF_OP_LDTA:
		case DIF_OP_LDTS:
		case DIF_OP_STTS:
		case DIF_OP_LDGAA:
		case DIF_OP_LDTAA:
		case DIF_OP_STGAA:
		case DIF_OP_STTAA:
		case DIF_OP_XLATE:
		case DIF_OP_XLARG:
		default: dif_fault(c, DTRACEFLT_ILLOP, 0); break;
		}
		if (c->fault)
			c->fault_pc = cur * 4;
	}
	return c->fault;
}
