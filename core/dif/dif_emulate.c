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
 * and d_path when the environment provides ops->d_path (a kernel engine).
 *
 * Fault with DTRACEFLT_ILLOP (illval: the subroutine number or variable id):
 *   mutex_owned mutex_owner mutex_type_adaptive mutex_type_spin
 *   rw_read_held rw_write_held rw_iswriter -- they decode Solaris kmutex_t /
 *     krwlock_t words; Linux locks have no such portable encoding;
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
#include "dif_emulate.h"
#include "dif_dstate.h"

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

/*
 * Memory that may be written (illumos dtrace_canstore): allocated scratch,
 * by-ref variable storage, the values of dynamic variables.
 */
static uint8_t *writable(const dif_ctx_t *c, uint64_t addr, uint64_t size)
{
	if (c->scratch && in_range(addr, size, (uint64_t)(uintptr_t)c->scratch, c->scratch_used))
		return (uint8_t *)c->scratch + (addr - (uint64_t)(uintptr_t)c->scratch);
	if (c->varmem && in_range(addr, size, (uint64_t)(uintptr_t)c->varmem, c->varmem_size))
		return c->varmem + (addr - (uint64_t)(uintptr_t)c->varmem);
	if (c->dstate)
		return dif_dvar_owned(c->dstate, addr, size);
	return NULL;
}

/* DTrace-owned memory that may be read: the writable kinds and the string table. */
static const uint8_t *owned(const dif_ctx_t *c, uint64_t addr, uint64_t size)
{
	const dif_difo_t *dp = c->difo;
	const uint8_t *p = writable(c, addr, size);

	if (p)
		return p;
	if (dp->strtab && in_range(addr, size, (uint64_t)(uintptr_t)dp->strtab, dp->strlen))
		return (const uint8_t *)dp->strtab + (addr - (uint64_t)(uintptr_t)dp->strtab);
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

/* a + b wrapping like the hardware illumos runs on (no C overflow). */
static int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
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
		if (index < 0 && wrap_add(index, remaining) > 0) {
			remaining = wrap_add(remaining, index);
			index = 0;
		}
	}
	if (index >= len || index < 0)
		remaining = 0;
	else if (remaining < 0)
		remaining += len - index;
	else if (wrap_add(index, remaining) > (int64_t)size)
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

/* rand(): xoroshiro128+ (illumos dtrace_xoroshiro128_plus_next), state in the ctx. */
static uint64_t rotl64(uint64_t x, unsigned k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t subr_rand(dif_ctx_t *c)
{
	uint64_t s0 = c->rand_state[0], s1 = c->rand_state[1], r;

	if (s0 == 0 && s1 == 0) {
		s0 = 0x9e3779b97f4a7c15ull;
		s1 = 0xbf58476d1ce4e5b9ull;
	}
	r = s0 + s1;
	s1 ^= s0;
	c->rand_state[0] = rotl64(s0, 55) ^ s1 ^ (s1 << 14);
	c->rand_state[1] = rotl64(s1, 36);
	return r;
}

/*
 * strtok(str, delims): illumos semantics. A NULL str continues where the
 * previous call stopped (ctx->strtok); no token left gives NULL.
 */
static uint64_t subr_strtok(dif_ctx_t *c, uint64_t size)
{
	uint64_t addr = c->tupregs[0].value, tok = c->tupregs[1].value, limit, i;
	uint8_t map[32], ch = 0;
	char *d = scratch_alloc(c, size);

	if (!d)
		return 0;
	/* NULL: continue (after the last token, NULL again: a BADADDR fault). */
	if (addr == 0) {
		addr = c->strtok;
	} else {
		/*
		 * Tokenise a scratch copy: the saved position must stay readable
		 * in the clause's later actions (another DIFO's string table is
		 * not), and scratch lives for the whole probe firing.
		 */
		char *copy = scratch_alloc(c, size);

		if (!copy)
			return 0;
		for (i = 0; i < size - 1; i++) {
			if ((copy[i] = (char)ld8(c, addr + i)) == '\0' || c->fault)
				break;
		}
		if (c->fault)
			return 0;
		addr = ptr2addr(copy);
	}
	for (i = 0; i < sizeof(map); i++)
		map[i] = 0;
	for (i = 0; i < size; i++) {
		if ((ch = ld8(c, tok + i)) == '\0')
			break;
		map[ch >> 3] |= (uint8_t)(1u << (ch & 7));
	}
	/* Skip leading delimiters. */
	ch = 0;
	for (limit = addr + size; addr < limit && !c->fault; addr++) {
		if ((ch = ld8(c, addr)) == '\0' || !(map[ch >> 3] & (1u << (ch & 7))))
			break;
	}
	if (c->fault)
		return 0;
	if (ch == '\0') {
		c->strtok = 0;
		c->scratch_used = (uint64_t)(d - c->scratch); /* nothing returned */
		return 0;
	}
	for (i = 0; addr < limit && i < size - 1; addr++) {
		if ((ch = ld8(c, addr)) == '\0' || (map[ch >> 3] & (1u << (ch & 7))))
			break;
		d[i++] = (char)ch;
	}
	d[i] = '\0';
	c->strtok = addr;
	return c->fault ? 0 : ptr2addr(d);
}

/* cleanpath(): collapse "//", "/./" and "/../" as illumos does, bounded by strsize. */
static uint64_t subr_cleanpath(dif_ctx_t *c, uint64_t size)
{
	uint64_t src = c->tupregs[0].value, i = 0, j = 0;
	char *d = scratch_alloc(c, size), ch = 0;
	bool have = false; /* ch already holds the next character */

	if (!d)
		return 0;
	do {
		if (!have)
			ch = (char)ld8(c, src + i++);
		have = false;
		if (c->fault)
			return 0;
		if (j + 5 >= size) /* room for "/..c" and the NUL */
			break;
		if (ch != '/') {
			d[j++] = ch;
			continue;
		}
		ch = (char)ld8(c, src + i++);
		if (ch == '/') { /* "//": look at the second slash again */
			have = true;
			continue;
		}
		if (ch != '.') {
			d[j++] = '/';
			d[j++] = ch;
			continue;
		}
		ch = (char)ld8(c, src + i++);
		if (ch == '/') { /* "/./" */
			have = true;
			continue;
		}
		if (ch != '.') {
			d[j++] = '/';
			d[j++] = '.';
			d[j++] = ch;
			continue;
		}
		ch = (char)ld8(c, src + i++);
		if (ch != '/' && ch != '\0') { /* "/..x" is a name */
			d[j++] = '/';
			d[j++] = '.';
			d[j++] = '.';
			d[j++] = ch;
			continue;
		}
		/* "/../" or "/..": drop the last component, rescan the slash. */
		i--;
		while (j != 0 && d[--j] != '/')
			;
		if (ch == '\0')
			d[++j] = '/';
	} while (ch != '\0');
	d[j] = '\0';
	return c->fault ? 0 : ptr2addr(d);
}

/* Decimal digits of v written backwards before end; returns the new end. */
static char *put_dec_rev(char *end, uint32_t v)
{
	if (v == 0)
		*end-- = '0';
	for (; v; v /= 10)
		*end-- = (char)('0' + v % 10);
	return end;
}

#define DIF_AF_INET 2	/* Linux AF_INET */
#define DIF_AF_INET6 10 /* Linux AF_INET6 (illumos: 26) */
#define DIF_INET_ADDRSTRLEN 16
#define DIF_INET6_ADDRSTRLEN 46

/*
 * inet_ntoa(&ipaddr), inet_ntoa6(&in6), inet_ntop(af, &addr): the output of
 * illumos dtrace_dif_subr, quirks included: IPv6 with the longest zero run
 * (by its byte-level rule) as "::", lower-case hex, IPv4-mapped and
 * -compatible addresses with a dotted quad (inet_ntoa6: the quad alone).
 */
static uint64_t subr_inet(dif_ctx_t *c, uint32_t subr)
{
	uint64_t src = c->tupregs[subr == DIF_SUBR_INET_NTOP ? 1 : 0].value, size;
	uint64_t af = subr == DIF_SUBR_INET_NTOP   ? c->tupregs[0].value
		      : subr == DIF_SUBR_INET_NTOA ? DIF_AF_INET
						   : DIF_AF_INET6;
	uint8_t a[16];
	char *base, *end;
	int i, firstzero = -1, tryzero = -1, numzero = 1, v6end = 14;

	if (af != DIF_AF_INET && af != DIF_AF_INET6) {
		dif_fault(c, DTRACEFLT_ILLOP, af);
		return 0;
	}
	size = af == DIF_AF_INET ? 4 : 16;
	for (i = 0; i < (int)size; i++)
		a[i] = ld8(c, src + (uint64_t)i);
	if (c->fault)
		return 0;
	size = af == DIF_AF_INET ? DIF_INET_ADDRSTRLEN : DIF_INET6_ADDRSTRLEN;
	base = scratch_alloc(c, size);
	if (!base)
		return 0;
	end = base + size - 1;
	*end-- = '\0';
	if (af == DIF_AF_INET) {
		for (i = 3; i >= 0; i--) {
			end = put_dec_rev(end, a[i]);
			if (i > 0)
				*end-- = '.';
		}
		return ptr2addr(end + 1);
	}
	/* The zero run to compress: illumos' byte-wise search. */
	for (i = 0; i < 16; i++) {
		if (a[i] == 0 && tryzero == -1 && i % 2 == 0) {
			tryzero = i;
			continue;
		}
		if (tryzero != -1 && (a[i] != 0 || i == 15)) {
			if (i - tryzero <= numzero) {
				tryzero = -1;
				continue;
			}
			firstzero = tryzero;
			numzero = i - i % 2 - tryzero;
			tryzero = -1;
			if (a[i] == 0 && i == 15)
				numzero += 2;
		}
	}
	/* IPv4-mapped (::ffff:a.b.c.d) or -compatible (::a.b.c.d, not :: or ::1). */
	{
		bool zero80 = true, mapped, compat;
		uint32_t last = (uint32_t)a[12] | a[13] | a[14] | a[15];

		for (i = 0; i < 10; i++)
			zero80 = zero80 && a[i] == 0;
		mapped = zero80 && a[10] == 0xff && a[11] == 0xff;
		compat = zero80 && a[10] == 0 && a[11] == 0 && last != 0 &&
			 !(a[12] == 0 && a[13] == 0 && a[14] == 0 && a[15] == 1);
		if (mapped || compat) {
			for (i = 15; i >= 12; i--) {
				end = put_dec_rev(end, a[i]);
				if (i > 12)
					*end-- = '.';
			}
			if (subr == DIF_SUBR_INET_NTOA6)
				return ptr2addr(end + 1);
			v6end = 10;
		}
	}
	for (i = v6end; i >= 0; i -= 2) {
		uint32_t val;

		if (i == firstzero + numzero - 2) {
			*end-- = ':';
			*end-- = ':';
			i -= numzero - 2;
			continue;
		}
		if (i < 14 && i != firstzero - 2)
			*end-- = ':';
		val = ((uint32_t)a[i] << 8) + a[i + 1];
		if (val == 0)
			*end-- = '0';
		for (; val; val /= 16)
			*end-- = "0123456789abcdef"[val % 16];
	}
	return ptr2addr(end + 1);
}

/* strtoll(str [, base]): illumos dtrace_strtoll, bounded by strsize. */
static uint64_t subr_strtoll(dif_ctx_t *c, uint64_t size)
{
	uint64_t pos = c->tupregs[0].value, end = pos + size, base = 10, val = 0, x;
	bool neg = false;
	uint8_t ch;

	if (c->ttop > 1) {
		base = c->tupregs[1].value;
		if (base <= 1 || base > 36) {
			dif_fault(c, DTRACEFLT_ILLOP, base);
			return 0;
		}
	}
	while (pos < end && ((ch = ld8(c, pos)) == ' ' || ch == '\t'))
		pos++;
	ch = pos < end ? ld8(c, pos) : 0;
	if (ch == '-' || ch == '+') {
		neg = ch == '-';
		ch = ++pos < end ? ld8(c, pos) : 0;
	}
	if (base == 16 && ch == '0' && pos + 2 < end) {
		uint8_t c1 = ld8(c, pos + 1), c2 = ld8(c, pos + 2);

		if ((c1 == 'x' || c1 == 'X') &&
		    ((c2 >= '0' && c2 <= '9') || (c2 >= 'a' && c2 <= 'f') ||
		     (c2 >= 'A' && c2 <= 'F'))) {
			pos += 2;
			ch = c2;
		}
	}
	for (; pos < end && ch != '\0' && !c->fault; ch = ++pos < end ? ld8(c, pos) : 0) {
		if (ch >= '0' && ch <= '9')
			x = ch - '0';
		else if (ch >= 'a' && ch <= 'z')
			x = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'Z')
			x = ch - 'A' + 10;
		else
			break;
		if (x >= base)
			break;
		val = val * base + x;
	}
	return c->fault ? 0 : neg ? 0 - val : val;
}

/* json(): illumos dtrace_json, a one-pass selector over a JSON string. */
enum json_state {
	JS_REST,	  /* before the top-level object or array */
	JS_OBJECT,	  /* expecting a key string */
	JS_STRING,	  /* inside a string */
	JS_ESCAPE,	  /* after a backslash */
	JS_UNICODE,	  /* inside \uXXXX */
	JS_COLON,	  /* after a key */
	JS_COMMA,	  /* after a value */
	JS_IDENT,	  /* true, false, null */
	JS_NUMBER,	  /* integer part */
	JS_FRAC,	  /* after '.' */
	JS_EXP,		  /* after 'e' */
	JS_VALUE,	  /* expecting a value */
	JS_COLLECT,	  /* copying a nested object or array whole */
};

static bool js_space(char ch)
{
	return ch == ' ' || ch == '\r' || ch == '\n' || ch == '\t' || ch == '\f';
}

static bool js_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool js_xdigit(char ch)
{
	return js_digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static bool js_lower(char ch)
{
	return ch >= 'a' && ch <= 'z';
}

/* Host-string compare of at most n bytes (dtrace_strncmp on owned memory). */
static bool js_equal(const char *a, const char *b, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		if (a[i] != b[i])
			return false;
		if (a[i] == '\0')
			return true;
	}
	return true;
}

/* An array index selector, as dtrace_strtoll(elem, 10, size). */
static int64_t js_index(const char *s, uint64_t size)
{
	uint64_t i = 0, v = 0;
	bool neg = false;

	while (i < size && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < size && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < size && js_digit(s[i]); i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	return (int64_t)(neg ? 0 - v : v);
}

/*
 * Walk json (at most size bytes) following the selector elements in elems
 * (nelems NUL-separated strings); the selected value is copied to dest
 * (cap bytes). Returns dest, or NULL if the JSON is malformed or the
 * element is not there.
 */
static char *json_select(dif_ctx_t *c, uint64_t size, uint64_t json, const char *elems,
			 const char *elems_end, int nelems, char *dest, uint64_t cap)
{
	enum json_state st = JS_REST;
	int64_t array_elem = (int64_t)((uint64_t)1 << 63), array_pos = 0;
	unsigned unicount = 0;
	bool is_key = false, collect = false, found = false, in_array = false;
	uint32_t braces = 0, brackets = 0;
	const char *elem = elems;
	uint64_t dd = 0;

#define JS_PUT(ch)                          \
	do {                                \
		if (dd + 1 >= cap)          \
			return NULL;        \
		dest[dd++] = (char)(ch);    \
	} while (0)

	for (uint64_t cur = json; cur < json + size; cur++) {
		char cc = (char)ld8(c, cur);

		if (c->fault || cc == '\0')
			return NULL;
		switch (st) {
		case JS_REST:
			if (js_space(cc))
				break;
			if (cc == '{') {
				st = JS_OBJECT;
				break;
			}
			if (cc == '[') {
				in_array = true;
				array_pos = 0;
				array_elem = js_index(elem, (uint64_t)(elems_end - elem));
				found = array_elem == 0;
				st = JS_VALUE;
				break;
			}
			return NULL; /* not an object or array */
		case JS_OBJECT:
			if (js_space(cc))
				break;
			if (cc == '"') {
				st = JS_STRING;
				is_key = true;
				break;
			}
			return NULL; /* no key, or the end without finding it */
		case JS_STRING:
			if (cc == '\\') {
				JS_PUT('\\');
				st = JS_ESCAPE;
				break;
			}
			if (cc == '"') {
				if (collect) { /* part of an object being collected */
					JS_PUT(cc);
					collect = false;
					st = JS_COLLECT;
					break;
				}
				dest[dd] = '\0';
				dd = 0;
				if (is_key) {
					if (js_equal(dest, elem, size))
						found = true;
				} else if (found) {
					return nelems > 1 ? NULL : dest;
				}
				st = is_key ? JS_COLON : JS_COMMA;
				is_key = false;
				break;
			}
			JS_PUT(cc);
			break;
		case JS_ESCAPE:
			JS_PUT(cc);
			if (cc == 'u') {
				unicount = 0;
				st = JS_UNICODE;
			} else {
				st = JS_STRING;
			}
			break;
		case JS_UNICODE:
			if (!js_xdigit(cc))
				return NULL;
			JS_PUT(cc);
			if (++unicount == 4)
				st = JS_STRING;
			break;
		case JS_COLON:
			if (js_space(cc))
				break;
			if (cc == ':') {
				st = JS_VALUE;
				break;
			}
			return NULL;
		case JS_COMMA:
			if (js_space(cc))
				break;
			if (cc == ',') {
				if (in_array) {
					st = JS_VALUE;
					if (++array_pos == array_elem)
						found = true;
				} else {
					st = JS_OBJECT;
				}
				break;
			}
			return NULL; /* end of the object or array: not found */
		case JS_IDENT:
			if (js_lower(cc)) {
				JS_PUT(cc);
				break;
			}
			dest[dd] = '\0';
			dd = 0;
			if (js_equal(dest, "true", 5) || js_equal(dest, "false", 6) ||
			    js_equal(dest, "null", 5)) {
				if (found)
					return nelems > 1 ? NULL : dest;
				cur--; /* look at cc again */
				st = JS_COMMA;
				break;
			}
			return NULL;
		case JS_NUMBER:
		case JS_FRAC:
		case JS_EXP:
			if (st == JS_NUMBER && cc == '.') {
				JS_PUT(cc);
				st = JS_FRAC;
				break;
			}
			if (st == JS_NUMBER && (cc == 'x' || cc == 'X'))
				return NULL; /* no hexadecimal or octal */
			if (st != JS_EXP && (cc == 'e' || cc == 'E')) {
				JS_PUT(cc);
				st = JS_EXP;
				break;
			}
			if (st != JS_EXP && (cc == '+' || cc == '-'))
				return NULL; /* a sign only in the exponent */
			if (js_digit(cc) || cc == '+' || cc == '-') {
				JS_PUT(cc);
				break;
			}
			dest[dd] = '\0';
			dd = 0;
			if (found)
				return nelems > 1 ? NULL : dest;
			cur--;
			st = JS_COMMA;
			break;
		case JS_VALUE:
			if (js_space(cc))
				break;
			if (cc == '{' || cc == '[') {
				if (nelems > 1 && found) {
					/* Descend: the next selector element applies. */
					in_array = cc == '[';
					while (elem < elems_end && *elem != '\0')
						elem++;
					if (elem < elems_end)
						elem++;
					nelems--;
					dd = 0;
					if (in_array) {
						st = JS_VALUE;
						array_pos = 0;
						array_elem = js_index(elem,
								      (uint64_t)(elems_end - elem));
						found = array_elem == 0;
					} else {
						found = false;
						st = JS_OBJECT;
					}
					break;
				}
				/* Skip the nested value, or return it whole. */
				if (cc == '[')
					brackets = 1;
				else
					braces = 1;
				JS_PUT(cc);
				st = JS_COLLECT;
				break;
			}
			if (cc == '"') {
				st = JS_STRING;
				break;
			}
			if (js_lower(cc)) {
				JS_PUT(cc);
				st = JS_IDENT;
				break;
			}
			if (cc == '-' || js_digit(cc)) {
				JS_PUT(cc);
				st = JS_NUMBER;
				break;
			}
			return NULL;
		case JS_COLLECT:
			JS_PUT(cc);
			if (cc == '"') {
				collect = true;
				st = JS_STRING;
				break;
			}
			if (cc == ']') {
				if (brackets-- == 0)
					return NULL;
			} else if (cc == '}') {
				if (braces-- == 0)
					return NULL;
			} else if (cc == '{') {
				braces++;
			} else if (cc == '[') {
				brackets++;
			}
			if (brackets == 0 && braces == 0) {
				if (found) {
					dest[dd] = '\0';
					return dest;
				}
				dd = 0;
				st = JS_COMMA;
			}
			break;
		}
	}
#undef JS_PUT
	return NULL;
}

/*
 * json(string, selector): the selector "a.b[2].c" split into a packed list
 * of NUL-separated elements ("[0]" first: the bracket is dropped).
 */
static uint64_t subr_json(dif_ctx_t *c, uint64_t size)
{
	uint64_t json = c->tupregs[0].value, sel = c->tupregs[1].value;
	uint64_t jsonlen = dif_strlen(c, json, size), sellen = dif_strlen(c, sel, size);
	uint64_t start = c->scratch_used;
	char *dest, *elems, *ee, *r;
	int nelems = 1;

	if (c->fault)
		return 0;
	dest = scratch_alloc(c, jsonlen + 1 + sellen + 1);
	if (!dest)
		return 0;
	elems = ee = dest + jsonlen + 1;
	for (uint64_t i = 0; i < sellen; i++) {
		char cc = (char)ld8(c, sel + i);

		if ((i == 0 && cc == '[') || cc == ']')
			continue;
		if (cc == '.' || cc == '[') {
			nelems++;
			cc = '\0';
		}
		*ee++ = cc;
	}
	*ee++ = '\0';
	r = c->fault ? NULL
		     : json_select(c, size, json, elems, ee, nelems, dest, jsonlen + 1);
	if (!r || c->fault) {
		c->scratch_used = start;
		return 0;
	}
	c->scratch_used = (uint64_t)(dest - c->scratch) + jsonlen + 1;
	return ptr2addr(r);
}

/* Copy size bytes of user memory at uaddr to dst. */
static void copy_in(dif_ctx_t *c, uint64_t uaddr, uint8_t *dst, uint64_t size)
{
	uint16_t f = 0;

	if (c->ops->copyin) {
		c->ops->copyin(c->env, uaddr, dst, size, &f);
		if (f)
			dif_fault(c, f, uaddr);
		return;
	}
	for (uint64_t i = 0; i < size && !c->fault; i++)
		dst[i] = (uint8_t)dif_load(c, uaddr + i, 1, DIF_SPACE_USER);
}

/* copyin(uaddr, size): a scratch copy of user memory. */
static uint64_t subr_copyin(dif_ctx_t *c)
{
	uint64_t size = c->tupregs[1].value;
	char *d = scratch_alloc(c, size);

	if (!d)
		return 0;
	copy_in(c, c->tupregs[0].value, (uint8_t *)d, size);
	return c->fault ? 0 : ptr2addr(d);
}

/* copyinto(uaddr, size, dest): dest must be scratch (illumos: BADADDR). */
static uint64_t subr_copyinto(dif_ctx_t *c)
{
	uint64_t size = c->tupregs[1].value, dest = c->tupregs[2].value;
	uint8_t *p = writable(c, dest, size);

	if (!p) {
		dif_fault(c, DTRACEFLT_BADADDR, dest);
		return 0;
	}
	copy_in(c, c->tupregs[0].value, p, size);
	return 0;
}

/*
 * copyout(buf, uaddr, size) and copyoutstr(str, uaddr, maxlen): the source
 * must be DTrace-owned memory (scratch, variables, the string table); the
 * environment does the (destructive) write or refuses it.
 */
static uint64_t subr_copyout(dif_ctx_t *c, uint32_t subr)
{
	uint64_t src = c->tupregs[0].value, uaddr = c->tupregs[1].value;
	uint64_t size = c->tupregs[2].value;
	const uint8_t *p;
	uint16_t f = 0;

	if (!c->ops->copyout) {
		dif_fault(c, DTRACEFLT_ILLOP, subr);
		return 0;
	}
	if (subr == DIF_SUBR_COPYOUTSTR) {
		uint64_t len = dif_strlen(c, src, size);

		if (c->fault)
			return 0;
		size = len < size ? len + 1 : size;
	}
	p = owned(c, src, size);
	if (!p) {
		dif_fault(c, DTRACEFLT_BADADDR, src);
		return 0;
	}
	c->ops->copyout(c->env, p, uaddr, size, &f);
	if (f)
		dif_fault(c, f, uaddr);
	return 0;
}

/* d_path(&path): only where the environment can resolve it (a kernel engine). */
static uint64_t subr_d_path(dif_ctx_t *c, uint64_t size)
{
	uint16_t f = 0;
	char *d;

	if (!c->ops->d_path) {
		dif_fault(c, DTRACEFLT_ILLOP, DIF_SUBR_D_PATH);
		return 0;
	}
	d = scratch_alloc(c, size);
	if (!d)
		return 0;
	c->ops->d_path(c->env, c->tupregs[0].value, d, size, &f);
	if (f) {
		dif_fault(c, f, c->tupregs[0].value);
		return 0;
	}
	d[size - 1] = '\0';
	return ptr2addr(d);
}

/* An optional env op returning a value: speculation(), progenyof(pid). */
static uint64_t subr_env(dif_ctx_t *c, uint32_t subr)
{
	if (subr == DIF_SUBR_SPECULATION && c->ops->speculation)
		return c->ops->speculation(c->env);
	if (subr == DIF_SUBR_PROGENYOF && c->ops->progenyof)
		return c->ops->progenyof(c->env, c->tupregs[0].value);
	dif_fault(c, DTRACEFLT_ILLOP, subr);
	return 0;
}

/* Minimum number of tuple arguments of each subroutine. */
static uint32_t subr_nargs(uint32_t subr)
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

static uint64_t dif_subr(dif_ctx_t *c, uint32_t subr, uint64_t strsize)
{
	if (c->ttop < subr_nargs(subr)) {
		dif_fault(c, DTRACEFLT_ILLOP, subr);
		return 0;
	}
	switch (subr) {
	case DIF_SUBR_RAND: return subr_rand(c);
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
	case DIF_SUBR_STRTOK: return subr_strtok(c, strsize);
	case DIF_SUBR_SUBSTR: return subr_substr(c, strsize);
	case DIF_SUBR_STRJOIN: return subr_strjoin(c, strsize);
	case DIF_SUBR_LLTOSTR: return subr_lltostr(c);
	case DIF_SUBR_STRTOLL: return subr_strtoll(c, strsize);
	case DIF_SUBR_JSON: return subr_json(c, strsize);
	case DIF_SUBR_TOUPPER:
	case DIF_SUBR_TOLOWER: return subr_case(c, subr, strsize);
	case DIF_SUBR_BASENAME:
	case DIF_SUBR_DIRNAME: return subr_path(c, subr, strsize);
	case DIF_SUBR_CLEANPATH: return subr_cleanpath(c, strsize);
	case DIF_SUBR_HTONS:
	case DIF_SUBR_NTOHS: return DIF_HTON(16, c->tupregs[0].value);
	case DIF_SUBR_HTONL:
	case DIF_SUBR_NTOHL: return DIF_HTON(32, c->tupregs[0].value);
	case DIF_SUBR_HTONLL:
	case DIF_SUBR_NTOHLL: return DIF_HTON(64, c->tupregs[0].value);
	case DIF_SUBR_INET_NTOA:
	case DIF_SUBR_INET_NTOA6:
	case DIF_SUBR_INET_NTOP: return subr_inet(c, subr);
	case DIF_SUBR_ALLOCA: return ptr2addr(scratch_alloc(c, c->tupregs[0].value));
	case DIF_SUBR_BCOPY: return subr_bcopy(c);
	case DIF_SUBR_COPYIN: return subr_copyin(c);
	case DIF_SUBR_COPYINTO: return subr_copyinto(c);
	case DIF_SUBR_COPYINSTR: return subr_copyinstr(c, strsize);
	case DIF_SUBR_COPYOUT:
	case DIF_SUBR_COPYOUTSTR: return subr_copyout(c, subr);
	case DIF_SUBR_SPECULATION:
	case DIF_SUBR_PROGENYOF: return subr_env(c, subr);
	/* Linux kernel dev_t: 12-bit major above a 20-bit minor (MINORBITS). */
	case DIF_SUBR_GETMAJOR: return (uint32_t)c->tupregs[0].value >> 20;
	case DIF_SUBR_GETMINOR: return c->tupregs[0].value & 0xfffff;
	case DIF_SUBR_D_PATH: return subr_d_path(c, strsize);
	/*
	 * Solaris-only: mutex_* and rw_* decode kmutex_t/krwlock_t, msgsize
	 * and msgdsize walk STREAMS mblk_t, ddi_pathname walks dev_info,
	 * getf returns a file_t; Linux has no equivalent encoding.
	 */
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
			if ((dst[i] = ld8(c, src + i)) == '\0')
				return;
		dst[i] = '\0';
		return;
	}
	for (uint64_t i = 0; i < cap && !c->fault; i++)
		dst[i] = ld8(c, src + i);
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
	if (!c->varmem || !in_range(ptr2addr(b->data), DIF_VARBUF_HDR + b->size,
				    ptr2addr(c->varmem), c->varmem_size)) {
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
		return ptr2addr(b->data + DIF_VARBUF_HDR);
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
	return ld8((dif_ctx_t *)arg, addr);
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
			(void)ld8(c, keys[i].value + j);
	if (c->fault)
		return;
	if (!store) {
		n = dif_dvar_find(c->dstate, &k);
		val = n ? dif_dvar_value(c->dstate, n, NULL) : NULL;
		if (!val)
			c->regs[rd] = 0;
		else if (var_byref(v))
			c->regs[rd] = ptr2addr(val);
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

			if (id < DIF_VAR_OTHER_UBASE)
				regs[rd] = dif_builtin(c, id, 0);
			else
				regs[rd] = scalar_load(c, id, DIFV_SCOPE_GLOBAL);
			break;
		}
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
		case DIF_OP_LDTA: /* no D construct emits it (illumos: unimplemented) */
		case DIF_OP_XLATE:
		case DIF_OP_XLARG:
		default: dif_fault(c, DTRACEFLT_ILLOP, 0); break;
		}
		if (c->fault)
			c->fault_pc = cur * 4;
	}
	return c->fault;
}
