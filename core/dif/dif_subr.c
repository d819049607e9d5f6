// SPDX-License-Identifier: MIT
/*
 * dif_subr.c - the DIF subroutines (illumos dtrace_dif_subr): string,
 * path, network-address, copyin/copyout, rand, strtok, strtoll and json
 * helpers, called by dif_emulate() for DIF_OP_CALL through dif_subr().
 * Freestanding, like the rest of the VM (dif_compat.h); every memory access
 * goes through dif_impl.h's checked helpers.
 */
#include "dif_impl.h"
#include "dif_isa.h"

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
	char *d = dif_scratch_alloc(c, size);

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
		if ((d[i] = (char)dif_ld8(c, s + (uint64_t)(index + i))) == '\0')
			break;
	d[i] = '\0';
	return dif_ptr2addr(d);
}

/*
 * strjoin(a, b): a D string holds at most the strsize option's characters
 * (size - 1: size counts the NUL), so the join is cut there like every other
 * string result (illumos faults NOSCRATCH instead; Oracle's DTrace truncates).
 */
static uint64_t subr_strjoin(dif_ctx_t *c, uint64_t size)
{
	uint64_t s1 = c->tupregs[0].value, s2 = c->tupregs[1].value, i = 0;
	char *d = dif_scratch_alloc(c, size);

	if (!d)
		return 0;
	for (; i < size - 1; i++)
		if ((d[i] = (char)dif_ld8(c, s1++)) == '\0')
			break;
	for (; i < size - 1; i++)
		if ((d[i] = (char)dif_ld8(c, s2++)) == '\0')
			break;
	if (c->fault)
		return 0;
	d[i] = '\0';
	/* Give back what the result does not use. */
	c->scratch_used = (uint64_t)(d - c->scratch) + i + 1;
	return dif_ptr2addr(d);
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
	d = dif_scratch_alloc(c, size);
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
	return dif_ptr2addr(end + 1);
}

static uint64_t subr_case(dif_ctx_t *c, uint32_t subr, uint64_t size)
{
	uint64_t s = c->tupregs[0].value, i;
	char lower = subr == DIF_SUBR_TOUPPER ? 'a' : 'A';
	char upper = subr == DIF_SUBR_TOUPPER ? 'z' : 'Z';
	char convert = subr == DIF_SUBR_TOUPPER ? 'A' : 'a';
	char *d = dif_scratch_alloc(c, size), ch;

	if (!d)
		return 0;
	for (i = 0; i < size - 1; i++) {
		if ((ch = (char)dif_ld8(c, s + i)) == '\0')
			break;
		if (ch >= lower && ch <= upper)
			ch = (char)(convert + (ch - lower));
		d[i] = ch;
	}
	d[i] = '\0';
	return dif_ptr2addr(d);
}

/* basename and dirname, as illumos (basename("/") == "/", dirname("a") == "."). */
static uint64_t subr_path(dif_ctx_t *c, uint32_t subr, uint64_t size)
{
	static const char dot[] = ".";
	uint64_t src = c->tupregs[0].value;
	int64_t len = (int64_t)dif_strlen(c, src, size), i, j, start, end;
	int64_t lastbase = -1, firstbase = -1, lastdir = -1;
	bool use_dot = false;
	char *d = dif_scratch_alloc(c, size);

	if (!d || c->fault)
		return 0;
#define PATH_CH(k) (use_dot ? dot[k] : (char)dif_ld8(c, src + (uint64_t)(k)))
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
	return dif_ptr2addr(d);
}

static uint64_t subr_copyinstr(dif_ctx_t *c, uint64_t size)
{
	uint64_t addr = c->tupregs[0].value;
	uint16_t f = 0;
	char *d;

	if (c->ttop > 1 && c->tupregs[1].value < size)
		size = c->tupregs[1].value + 1;
	d = dif_scratch_alloc(c, size);
	if (!d)
		return 0;
	c->ops->copystr(c->env, addr, d, size, DIF_SPACE_USER, &f);
	if (f) {
		dif_fault(c, f, addr);
		return 0;
	}
	d[size - 1] = '\0';
	return dif_ptr2addr(d);
}

static uint64_t subr_bcopy(dif_ctx_t *c)
{
	uint64_t src = c->tupregs[0].value, dst = c->tupregs[1].value;
	uint64_t size = c->tupregs[2].value;
	uint8_t *p = dif_writable(c, dst, size);

	if (!p) {
		dif_fault(c, DTRACEFLT_BADADDR, dst);
		return 0;
	}
	for (uint64_t i = 0; i < size && !c->fault; i++)
		p[i] = dif_ld8(c, src + i);
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
	char *d = dif_scratch_alloc(c, size);

	if (!d)
		return 0;
	/* NULL: continue (after the last token, NULL again: a BADADDR fault). */
	if (addr == 0) {
		addr = c->strtok;
	} else {
		/*
		 * Tokenise a copy: the saved position must stay readable in
		 * the clause's later actions (another DIFO's string table is
		 * not). The environment's strtok buffer lives for the whole
		 * probe firing, scratch as long as the environment keeps it.
		 */
		char *copy = c->strtok_buf && size <= c->strsize ? c->strtok_buf
							     : dif_scratch_alloc(c, size);

		if (!copy)
			return 0;
		c->strtok = 0; /* until the copy is whole */
		for (i = 0; i < size - 1; i++) {
			if ((copy[i] = (char)dif_ld8(c, addr + i)) == '\0' || c->fault)
				break;
		}
		if (c->fault)
			return 0;
		copy[i] = '\0';
		addr = dif_ptr2addr(copy);
	}
	for (i = 0; i < sizeof(map); i++)
		map[i] = 0;
	for (i = 0; i < size; i++) {
		if ((ch = dif_ld8(c, tok + i)) == '\0')
			break;
		map[ch >> 3] |= (uint8_t)(1u << (ch & 7));
	}
	/* Skip leading delimiters. */
	ch = 0;
	for (limit = addr + size; addr < limit && !c->fault; addr++) {
		if ((ch = dif_ld8(c, addr)) == '\0' || !(map[ch >> 3] & (1u << (ch & 7))))
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
		if ((ch = dif_ld8(c, addr)) == '\0' || (map[ch >> 3] & (1u << (ch & 7))))
			break;
		d[i++] = (char)ch;
	}
	d[i] = '\0';
	c->strtok = addr;
	return c->fault ? 0 : dif_ptr2addr(d);
}

/* cleanpath(): collapse "//", "/./" and "/../" as illumos does, bounded by strsize. */
static uint64_t subr_cleanpath(dif_ctx_t *c, uint64_t size)
{
	uint64_t src = c->tupregs[0].value, i = 0, j = 0;
	char *d = dif_scratch_alloc(c, size), ch = 0;
	bool have = false; /* ch already holds the next character */

	if (!d)
		return 0;
	do {
		if (!have)
			ch = (char)dif_ld8(c, src + i++);
		have = false;
		if (c->fault)
			return 0;
		if (j + 5 >= size) /* room for "/..c" and the NUL */
			break;
		if (ch != '/') {
			d[j++] = ch;
			continue;
		}
		ch = (char)dif_ld8(c, src + i++);
		if (ch == '/') { /* "//": look at the second slash again */
			have = true;
			continue;
		}
		if (ch != '.') {
			d[j++] = '/';
			d[j++] = ch;
			continue;
		}
		ch = (char)dif_ld8(c, src + i++);
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
		ch = (char)dif_ld8(c, src + i++);
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
	return c->fault ? 0 : dif_ptr2addr(d);
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
		a[i] = dif_ld8(c, src + (uint64_t)i);
	if (c->fault)
		return 0;
	size = af == DIF_AF_INET ? DIF_INET_ADDRSTRLEN : DIF_INET6_ADDRSTRLEN;
	base = dif_scratch_alloc(c, size);
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
		return dif_ptr2addr(end + 1);
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
			/* inet_ntoa6(addr, strict): strict prints them as inet_ntop. */
			if (subr == DIF_SUBR_INET_NTOA6 &&
			    (c->ttop < 2 || c->tupregs[1].value == 0))
				return dif_ptr2addr(end + 1);
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
	return dif_ptr2addr(end + 1);
}

#define DIF_ARPHRD_ETHER 1	   /* Linux include/uapi/linux/if_arp.h */
#define DIF_ARPHRD_INFINIBAND 32

/*
 * link_ntop(type, &hwaddr): a link-layer address as lower-case hex bytes
 * joined by ':' (an Ethernet address has 6, an InfiniBand one 20); another
 * type faults ILLOP with the type.
 */
static uint64_t subr_link_ntop(dif_ctx_t *c)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t type = c->tupregs[0].value, src = c->tupregs[1].value, n, i;
	char *d;

	if (type == DIF_ARPHRD_ETHER) {
		n = 6;
	} else if (type == DIF_ARPHRD_INFINIBAND) {
		n = 20;
	} else {
		dif_fault(c, DTRACEFLT_ILLOP, type);
		return 0;
	}
	d = dif_scratch_alloc(c, n * 3);
	if (!d)
		return 0;
	for (i = 0; i < n; i++) {
		uint8_t b = dif_ld8(c, src + i);

		if (c->fault)
			return 0;
		d[3 * i] = hex[b >> 4];
		d[3 * i + 1] = hex[b & 15];
		d[3 * i + 2] = i + 1 < n ? ':' : '\0';
	}
	return dif_ptr2addr(d);
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
	while (pos < end && ((ch = dif_ld8(c, pos)) == ' ' || ch == '\t'))
		pos++;
	ch = pos < end ? dif_ld8(c, pos) : 0;
	if (ch == '-' || ch == '+') {
		neg = ch == '-';
		ch = ++pos < end ? dif_ld8(c, pos) : 0;
	}
	if (base == 16 && ch == '0' && pos + 2 < end) {
		uint8_t c1 = dif_ld8(c, pos + 1), c2 = dif_ld8(c, pos + 2);

		if ((c1 == 'x' || c1 == 'X') &&
		    ((c2 >= '0' && c2 <= '9') || (c2 >= 'a' && c2 <= 'f') ||
		     (c2 >= 'A' && c2 <= 'F'))) {
			pos += 2;
			ch = c2;
		}
	}
	for (; pos < end && ch != '\0' && !c->fault; ch = ++pos < end ? dif_ld8(c, pos) : 0) {
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
		char cc = (char)dif_ld8(c, cur);

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
	dest = dif_scratch_alloc(c, jsonlen + 1 + sellen + 1);
	if (!dest)
		return 0;
	elems = ee = dest + jsonlen + 1;
	for (uint64_t i = 0; i < sellen; i++) {
		char cc = (char)dif_ld8(c, sel + i);

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
	return dif_ptr2addr(r);
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
	char *d = dif_scratch_alloc(c, size);

	if (!d)
		return 0;
	copy_in(c, c->tupregs[0].value, (uint8_t *)d, size);
	return c->fault ? 0 : dif_ptr2addr(d);
}

/* copyinto(uaddr, size, dest): dest must be scratch (illumos: BADADDR). */
static uint64_t subr_copyinto(dif_ctx_t *c)
{
	uint64_t size = c->tupregs[1].value, dest = c->tupregs[2].value;
	uint8_t *p = dif_writable(c, dest, size);

	if (!p) {
		dif_fault(c, DTRACEFLT_BADADDR, dest);
		return 0;
	}
	copy_in(c, c->tupregs[0].value, p, size);
	return 0;
}

/*
 * copyinargs(uaddr, len): len bytes of user memory (Linux keeps a process's
 * arguments NUL-separated between mm->arg_start and arg_end) as one
 * string, each NUL a space but a final one dropped: what psinfo_t's
 * pr_psargs shows ("cat /etc/hostname"), bounded by strsize.
 */
static uint64_t subr_copyinargs(dif_ctx_t *c, uint64_t size)
{
	uint64_t len = c->tupregs[1].value, n;
	char *d;

	if (len < size)
		size = len + 1;
	d = dif_scratch_alloc(c, size);
	if (!d)
		return 0;
	n = size - 1;
	copy_in(c, c->tupregs[0].value, (uint8_t *)d, n);
	if (c->fault)
		return 0;
	if (n > 0 && d[n - 1] == '\0') /* the last argument's own NUL */
		n--;
	for (uint64_t i = 0; i < n; i++)
		if (d[i] == '\0')
			d[i] = ' ';
	d[n] = '\0';
	return dif_ptr2addr(d);
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
	p = dif_owned(c, src, size);
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
	d = dif_scratch_alloc(c, size);
	if (!d)
		return 0;
	c->ops->d_path(c->env, c->tupregs[0].value, d, size, &f);
	if (f) {
		dif_fault(c, f, c->tupregs[0].value);
		return 0;
	}
	d[size - 1] = '\0';
	return dif_ptr2addr(d);
}

/*
 * rw_read_held(), rw_write_held(), rw_iswriter() on a Linux rwlock_t: its
 * first word is the queued rwlock's cnts (include/asm-generic/qrwlock*.h,
 * x86-64 and arm64 alike): readers in the bits from _QR_SHIFT (9) up, the
 * writer's byte (_QW_LOCKED 0xff) and _QW_WAITING (0x100) below. As the
 * Dynamic Tracing Guide has them: held by readers (and no writer), held
 * by a writer, held or wanted by a writer.
 */
static uint64_t subr_rwlock(dif_ctx_t *c, uint32_t subr)
{
	uint32_t cnts = (uint32_t)dif_load(c, c->tupregs[0].value, 4, DIF_SPACE_KERNEL);
	uint32_t writer = cnts & 0xffu, waiting = cnts & 0x100u, readers = cnts >> 9;

	if (c->fault)
		return 0;
	if (subr == DIF_SUBR_RW_READ_HELD)
		return writer == 0 && readers != 0;
	if (subr == DIF_SUBR_RW_WRITE_HELD)
		return writer == 0xffu;
	return writer != 0 || waiting != 0;
}

/*
 * mutex_owned(), mutex_owner(), mutex_type_adaptive(), mutex_type_spin() on
 * a Linux struct mutex (illumos reads a kmutex_t): its owner word, where
 * the context says (c->mutex_owner, from the kernel's headers or BTF), is
 * the owning task_struct pointer with flag bits below it. As the Dynamic
 * Tracing Guide has them: mutex_owner() is the owning thread or NULL,
 * mutex_owned() non-zero when the calling thread (curthread) holds it. A
 * Linux mutex spins while its owner runs and sleeps otherwise: adaptive,
 * never a spin mutex. All four read the word, so a bad address faults as
 * illumos' dtrace_load64 of the kmutex_t does.
 */
static uint64_t subr_mutex(dif_ctx_t *c, uint32_t subr)
{
	uint64_t owner, self;
	uint16_t f = 0;

	if (!c->mutex_owner_mask) {
		dif_fault(c, DTRACEFLT_ILLOP, subr);
		return 0;
	}
	owner = dif_load(c, c->tupregs[0].value + c->mutex_owner, 8, DIF_SPACE_KERNEL) &
		c->mutex_owner_mask;
	if (c->fault)
		return 0;
	switch (subr) {
	case DIF_SUBR_MUTEX_OWNER: return owner;
	case DIF_SUBR_MUTEX_TYPE_ADAPTIVE: return 1;
	case DIF_SUBR_MUTEX_TYPE_SPIN: return 0;
	default: break;
	}
	self = c->ops->builtin(c->env, DIF_VAR_CURTHREAD, 0, &f);
	if (f) {
		dif_fault(c, f, DIF_VAR_CURTHREAD);
		return 0;
	}
	return owner != 0 && owner == self;
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

uint64_t dif_subr(dif_ctx_t *c, uint32_t subr, uint64_t strsize)
{
	if (c->ttop < dif_subr_min_args(subr)) {
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
			ch = dif_ld8(c, addr + k);
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
	case DIF_SUBR_ALLOCA: return dif_ptr2addr(dif_scratch_alloc(c, c->tupregs[0].value));
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
	case DIF_SUBR_COPYINARGS: return subr_copyinargs(c, strsize);
	case DIF_SUBR_LINK_NTOP: return subr_link_ntop(c);
	case DIF_SUBR_RW_READ_HELD:
	case DIF_SUBR_RW_WRITE_HELD:
	case DIF_SUBR_RW_ISWRITER: return subr_rwlock(c, subr);
	case DIF_SUBR_MUTEX_OWNED:
	case DIF_SUBR_MUTEX_OWNER:
	case DIF_SUBR_MUTEX_TYPE_ADAPTIVE:
	case DIF_SUBR_MUTEX_TYPE_SPIN: return subr_mutex(c, subr);
	/*
	 * Solaris-only: msgsize and msgdsize walk STREAMS mblk_t,
	 * ddi_pathname walks dev_info, getf returns a file_t; Linux has no
	 * equivalent.
	 */
	default: dif_fault(c, DTRACEFLT_ILLOP, subr); return 0;
	}
}

/* A built-in scalar (ldgs below DIF_VAR_OTHER_UBASE) or array element (ldga). */
