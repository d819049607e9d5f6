/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * subr_str.bpf.c - the string subroutines (dif_subr.c: strlen, strchr,
 * strrchr, strstr, index, rindex, substr, strjoin, toupper, tolower,
 * lltostr, strtoll, basename, dirname), on strings fetched into the
 * scratch temporaries.
 *
 * Verifier cost: a bounded loop is walked once per iteration, so every
 * loop here is a single loop of at most strsize + 1 steps (strsize is a
 * constant the translator passes) or strsize / 8 + 1 words, with a small
 * body; values a loop computes go through DT_RES slots (see
 * dt_lib_impl.h) so that its exits merge. Copies are single helper calls.
 */
#include "dt_lib_impl.h"

/* Copy n (< DT_TMP_SIZE) bytes of temporary tmp from index i to scratch string d + d_at. */
DT_INLINE void dt_tmp_to(struct dt_bpf_mem *m, u64 d, u64 d_at, u64 tmp, u64 i, u64 n)
{
	dt_mcpy(m, DT_BPF_TAG_OFF(d) + d_at, &DT_TB(m, tmp, i), n);
}

DT_API u64 dt_subr_strlen(struct dt_bpf_mem *m, u64 strsize, u64 s)
{
	long n = dt_fetch(m, s, DT_TMP_A, dt_strsize(strsize));

	return n < 0 ? 0 : (u64)n;
}

/*
 * strchr/strrchr: a word loop finds the first (last) word holding c, then
 * its bytes are looked at unrolled. The bytes after the NUL are zeroed up
 * to the word's end so that only c == 0 can match there, and positions
 * past the NUL are not taken.
 */
DT_INLINE u64 dt_strchr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 c, u64 last)
{
	u64 cc, nw, k, pos, len, r = ~0ULL;
	long l;

	strsize = dt_strsize(strsize);
	l = dt_fetch(m, s, DT_TMP_A, strsize);
	if (l < 0)
		return 0;
	len = (u64)l & (DT_TMP_SIZE - 1);
	*(u64 *)(DT_SP(m, DT_TMP_A) + ((len + 1) & (DT_TMP_SIZE - 1))) = 0;
	/* Every path enters the loop in one state: its inputs from map memory. */
	dt_res_set(m, 2, len);
	dt_res_set(m, 3, c);
	dt_res_set(m, 4, s);
	dt_res_set(m, 0, ~0ULL);
	nw = (dt_res(m, 2) & (DT_TMP_SIZE - 1)) / 8 + 1;
	cc = (dt_res(m, 3) & 0xff) * 0x0101010101010101ULL;
#pragma clang loop unroll(disable)
	for (k = 0; k <= DT_BPF_STRSIZE_MAX / 8; k++) {
		if (k >= nw || k * 8 > strsize)
			break;
		if (!last) {
			if (dt_zbytes(DT_TW(m, DT_TMP_A, k * 8) ^ cc)) {
				dt_res_set(m, 0, k);
				break;
			}
		} else {
			r = dt_sel(dt_nz(dt_zbytes(DT_TW(m, DT_TMP_A, k * 8) ^ cc)), k, r);
		}
	}
	if (last)
		dt_res_set(m, 0, r);
	k = dt_res(m, 0);
	if (k == ~0ULL)
		return 0;
	len = dt_res(m, 2);
	c = dt_res(m, 3);
	dt_res_set(m, 1, ~0ULL);
	/* Every match of the word in turn, the wanted one last. */
#pragma clang loop unroll(full)
	for (u64 b = 0; b < 8; b++) {
		pos = k * 8 + (last ? b : 7 - b);
		if (pos <= len && DT_TB(m, DT_TMP_A, pos) == (uint8_t)c)
			dt_res_set(m, 1, pos);
	}
	pos = dt_res(m, 1);
	return pos == ~0ULL ? 0 : dt_res(m, 4) + pos;
}

DT_API u64 dt_subr_strchr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 c)
{
	return dt_strchr(m, strsize, s, c, 0);
}

DT_API u64 dt_subr_strrchr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 c)
{
	return dt_strchr(m, strsize, s, c, 1);
}

/* The KMP table: u16 entries in DT_TMP_C. */

/*
 * index/rindex/strstr (illumos subr_index): the first (last) match by
 * Knuth-Morris-Pratt, two single branch-free loops of at most 2 * strsize
 * steps and no nested loop. The text is t(x) = A[ta + x] (forward: index
 * and strstr, from pos) or A[ta - x] (rev: rindex, backward from the last
 * possible end, the pattern q reversed too), for x < n, so the first match
 * found is the wanted one. Returns the text steps taken up to the match's
 * end, or -1.
 */
DT_INLINE int64_t dt_kmp(struct dt_bpf_mem *m, u64 strsize, u64 sl, u64 ta, u64 n, int rev)
{
	u64 i = 1, k = 0, x = 0, j = 0, eq, z, nk, c, lim = 2 * strsize + 2, qa;
	uint8_t *A, *B, *F;

	/* Every path enters the loops in one state: their inputs from map memory. */
	dt_res_set(m, 1, sl);
	dt_res_set(m, 2, ta);
	dt_res_set(m, 4, n);
	A = DT_SP(m, DT_TMP_A);
	B = DT_SP(m, DT_TMP_B);
	F = DT_SP(m, DT_TMP_C);
	sl = dt_res(m, 1) & (DT_TMP_SIZE - 1);
	qa = rev ? sl - 1 : 0;
#define DT_Q(j) B[(rev ? qa - (j) : (j)) & (DT_TMP_SIZE - 1)]
#define DT_F(j) (*(uint16_t *)(F + (((j) * 2) & (DT_TMP_SIZE - 2))))
	/* The bodies compute with 0/1 flags (dt_iszero) instead of branching. */
	/* F[i]: the longest proper border of q(0..i). */
	DT_F(0) = 0;
#pragma clang loop unroll(disable)
	for (c = 0; c < 2 * DT_BPF_STRFUNC_MAX + 2; c++) {
		if (c >= lim || i >= sl)
			break;
		eq = dt_iszero(DT_Q(i) ^ DT_Q(k));
		z = dt_iszero(k);
		/* match: k + 1; else k ? F[k - 1] : 0 */
		nk = DT_F(k - 1) * (1 - z);
		nk += (k + 1 - nk) * eq;
		DT_F(i) = (uint16_t)nk; /* final when i moves on; rewritten otherwise */
		i += eq | z;
		k = nk;
	}
	sl = dt_res(m, 1) & (DT_TMP_SIZE - 1);
	qa = rev ? (dt_res(m, 1) - 1) & (DT_TMP_SIZE - 1) : 0;
	ta = dt_res(m, 2);
	n = dt_res(m, 4) & (DT_TMP_SIZE - 1);
#pragma clang loop unroll(disable)
	for (c = 0; c < 2 * DT_BPF_STRFUNC_MAX + 2; c++) {
		if (c >= lim || x >= n || j >= sl)
			break;
		eq = dt_iszero(A[(rev ? ta - x : ta + x) & (DT_TMP_SIZE - 1)] ^ DT_Q(j));
		z = dt_iszero(j);
		x += eq | z;
		nk = DT_F(j - 1) * (1 - z);
		j = nk + (j + 1 - nk) * eq;
	}
#undef DT_Q
#undef DT_F
	dt_res_set(m, 0, x);
	dt_res_set(m, 2, j);
	return dt_res(m, 2) >= dt_res(m, 1) ? (int64_t)dt_res(m, 0) : -1;
}

/* which: 0 strstr, 1 index, 2 rindex (illumos subr_index, Perl's quirks). */
DT_INLINE u64 dt_index(struct dt_bpf_mem *m, u64 strsize, u64 orig, u64 sub, u64 start,
		       int which)
{
	u64 notfound = which == 0 ? 0 : (u64)-1;
	int64_t len, sublen, pos = 0, p, last, x;

	strsize = dt_fstrsize(strsize);
	len = dt_fetch(m, orig, DT_TMP_A, strsize);
	if (len < 0)
		return 0;
	sublen = dt_fetch(m, sub, DT_TMP_B, strsize);
	if (sublen < 0)
		return 0;
	if (sublen == 0 && len == 0)
		return which == 0 ? orig : 0;
	if (which == 2) {
		p = (int64_t)start;
		if (p < 0)
			return sublen == 0 ? 0 : notfound;
		if (p > len)
			p = len;
		if (sublen == 0)
			return (u64)p;
		last = len - sublen; /* the last start with room for the match */
		if (p > last)
			p = last;
		if (p < 0)
			return notfound;
		/* Backward from the text index p + sublen - 1, the pattern reversed. */
		dt_res_set(m, 8, (u64)(p + sublen));
		x = dt_kmp(m, strsize, (u64)sublen, (u64)(p + sublen - 1), (u64)(p + sublen), 1);
		return x < 0 ? notfound : dt_res(m, 8) - (u64)x;
	}
	if (which == 1) {
		p = (int64_t)start;
		if (p < 0)
			p = 0;
		if (p >= len)
			return sublen == 0 ? (u64)len : notfound;
		pos = p;
	}
	if (sublen == 0)
		return which == 0 ? orig + (u64)pos : (u64)pos;
	if (len - pos < sublen)
		return notfound;
	/* What is needed after the loops goes through map memory (see dt_kmp). */
	dt_res_set(m, 8, (u64)(pos - sublen) + (which == 0 ? orig : 0));
	x = dt_kmp(m, strsize, (u64)sublen, (u64)pos, (u64)(len - pos), 0);
	return x < 0 ? notfound : dt_res(m, 8) + (u64)x;
}

DT_API u64 dt_subr_strstr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 t)
{
	return dt_index(m, strsize, s, t, 0, 0);
}

DT_API u64 dt_subr_index(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 t, u64 start)
{
	return dt_index(m, strsize, s, t, start, 1);
}

DT_API u64 dt_subr_rindex(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 t, u64 start)
{
	return dt_index(m, strsize, s, t, start, 2);
}

DT_API u64 dt_subr_substr(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 index_, u64 len_)
{
	int64_t size, index = (int64_t)index_, remaining = (int64_t)len_, len;
	u64 d;

	strsize = dt_strsize(strsize);
	size = (int64_t)strsize;
	len = dt_fetch(m, s, DT_TMP_A, strsize);
	if (len < 0)
		return 0;
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	if (index < 0) {
		index += len;
		if (index < 0 && (int64_t)((u64)index + (u64)remaining) > 0) {
			remaining = (int64_t)((u64)remaining + (u64)index);
			index = 0;
		}
	}
	if (index >= len || index < 0)
		remaining = 0;
	else if (remaining < 0)
		remaining += len - index;
	else if ((int64_t)((u64)index + (u64)remaining) > size)
		remaining = size - index;
	if (remaining > size - 1)
		remaining = size - 1;
	if (remaining <= 0)
		return d;
	if (remaining > len - index) /* the copy stops at the NUL anyway */
		remaining = len - index;
	dt_tmp_to(m, d, 0, DT_TMP_A, (u64)index & (DT_TMP_SIZE - 1), (u64)remaining);
	dt_str_trim(m, d, strsize, remaining);
	return d;
}

DT_API u64 dt_subr_strjoin(struct dt_bpf_mem *m, u64 strsize, u64 a, u64 b)
{
	long la, lb;
	u64 d;

	strsize = dt_strsize(strsize);
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	la = dt_fetch(m, a, DT_TMP_A, strsize);
	if (la < 0)
		return 0;
	lb = dt_fetch(m, b, DT_TMP_B, strsize);
	if (lb < 0)
		return 0;
	/* Cut at strsize - 1 characters, as dif_subr.c's strjoin. */
	if ((u64)(la + lb + 1) > strsize)
		lb = (long)strsize - 1 - la;
	if (lb < 0)
		lb = 0;
	dt_tmp_to(m, d, 0, DT_TMP_A, 0, (u64)la);
	dt_tmp_to(m, d, (u64)la & (DT_TMP_SIZE - 1), DT_TMP_B, 0, (u64)lb);
	m->scratch_used = DT_BPF_TAG_OFF(d) + (u64)la + (u64)lb + 1; /* give the rest back */
	return d;
}

/*
 * toupper/tolower eight bytes at a time, branch-free: a byte is in
 * [lo, lo + 25] when it is ASCII, adding 0x80 - lo carries into its high
 * bit and adding 0x7f - (lo + 25) does not; such bytes get 0x20 flipped.
 */
DT_INLINE u64 dt_case(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 lo)
{
	u64 d, n, w, h, in;
	long len;

	strsize = dt_strsize(strsize);
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	len = dt_fetch(m, s, DT_TMP_A, strsize);
	if (len < 0)
		return 0;
	n = (u64)len > strsize - 1 ? strsize - 1 : (u64)len;
	dt_res_set(m, 0, n);
	dt_res_set(m, 1, d);
	n = dt_res(m, 0) & (DT_TMP_SIZE - 1);
#pragma clang loop unroll(disable)
	for (u64 k = 0; k <= DT_BPF_STRSIZE_MAX / 8; k++) {
		if (k * 8 >= n || k * 8 >= strsize)
			break;
		w = DT_TW(m, DT_TMP_A, k * 8);
		h = w & 0x7f7f7f7f7f7f7f7fULL;
		in = ((h + (0x80 - lo) * 0x0101010101010101ULL) ^
		      (h + (0x7f - (lo + 25)) * 0x0101010101010101ULL)) &
		     ~w & 0x8080808080808080ULL;
		DT_TW(m, DT_TMP_A, k * 8) = w ^ (in >> 2);
	}
	d = dt_res(m, 1);
	dt_tmp_to(m, d, 0, DT_TMP_A, 0, dt_res(m, 0));
	dt_str_trim(m, d, strsize, (long)dt_res(m, 0));
	return d;
}

DT_API u64 dt_subr_toupper(struct dt_bpf_mem *m, u64 strsize, u64 s)
{
	return dt_case(m, strsize, s, 'a');
}

DT_API u64 dt_subr_tolower(struct dt_bpf_mem *m, u64 strsize, u64 s)
{
	return dt_case(m, strsize, s, 'A');
}

/*
 * lltostr: digits right to left into a 64-byte area (the last byte stays
 * NUL); the digit's character without a branch.
 */
DT_API u64 dt_subr_lltostr(struct dt_bpf_mem *m, u64 strsize, u64 v, u64 base)
{
	int64_t i = (int64_t)v;
	u64 val, digit, d, o, pos;

	(void)strsize;
	if (base <= 1 || base > 36)
		return dt_fault(m, DTRACEFLT_ILLOP, base);
	d = dt_alloc(m, 66);
	if (!d)
		return 0;
	o = DT_CLAMP(DT_BPF_TAG_OFF(d), DT_SCRATCH_USABLE - 66);
	val = (base == 10 && i < 0) ? 0 - v : v;
	dt_res_set(m, 0, 64);
	dt_res_set(m, 1, o);
	dt_res_set(m, 2, base);
	dt_res_set(m, 3, val);
	dt_res_set(m, 4, d);
	val = dt_res(m, 3);
	base = dt_res(m, 2) & 63;
	o = dt_res(m, 1) & (DT_SCRATCH_USABLE - 1);
	o = DT_CLAMP(o, DT_SCRATCH_USABLE - 66);
#pragma clang loop unroll(disable)
	for (u64 k = 0; k < 64; k++) {
		if (!val)
			break;
		digit = val % base;
		/* '0' + digit, or 'a' + digit - 10 when 9 - digit wraps */
		m->scratch[o + ((63 - k) & 63)] = '0' + digit + (39 & (u64)((int64_t)(9 - digit) >> 63));
		dt_res_set(m, 0, 63 - k);
		val /= base;
	}
	pos = dt_res(m, 0) & 127; /* the first digit, 64 if none */
	o = DT_CLAMP(dt_res(m, 1), DT_SCRATCH_USABLE - 66);
	base = dt_res(m, 2);
	d = dt_res(m, 4);
	if (i == 0 && base == 16)
		m->scratch[o + (--pos & 63)] = '0';
	if (base == 16)
		m->scratch[o + (--pos & 63)] = 'x';
	if (i == 0 || base == 8 || base == 16)
		m->scratch[o + (--pos & 63)] = '0';
	if (i < 0 && base == 10)
		m->scratch[o + (--pos & 63)] = '-';
	return d + (pos & 63);
}

/* The value of digit ch in bases up to 36, or 36 when it is none; branch-free. */
DT_INLINE u64 dt_in(u64 v, u64 lo, u64 n) /* lo <= v < lo + n (small values) */
{
	return dt_lt(v, lo + n) * (1 - dt_lt(v, lo));
}

DT_INLINE u64 dt_digit(u64 ch)
{
	u64 lc = ch | 0x20;

	return dt_sel(dt_in(ch, '0', 10), ch - '0', dt_sel(dt_in(lc, 'a', 26), lc - 'a' + 10, 36));
}

/* strtoll(str [, base]): illumos dtrace_strtoll, bounded by strsize. */
DT_API u64 dt_subr_strtoll(struct dt_bpf_mem *m, u64 strsize, u64 s, u64 base)
{
	u64 pos, val = 0, neg = 0, end, x, ch, c1, c2, k;
	long len;

	strsize = dt_fstrsize(strsize);
	if (base <= 1 || base > 36)
		return dt_fault(m, DTRACEFLT_ILLOP, base);
	len = dt_fetch(m, s, DT_TMP_A, strsize);
	if (len < 0)
		return 0;
	/* the NUL ends every loop below as it ends dtrace_strtoll's */
	dt_res_set(m, 2, (u64)len);
	dt_res_set(m, 3, base);
	dt_res_set(m, 0, (u64)len);
	end = dt_res(m, 2) & (DT_TMP_SIZE - 1);
#pragma clang loop unroll(disable)
	for (k = 0; k <= DT_BPF_STRFUNC_MAX; k++) {
		if (k >= end || k >= strsize)
			break;
		ch = DT_TB(m, DT_TMP_A, k);
		if (ch != ' ' && ch != '\t') {
			dt_res_set(m, 0, k);
			break;
		}
	}
	base = dt_res(m, 3);
	pos = dt_res(m, 0) & (DT_TMP_SIZE - 1);
	ch = DT_TB(m, DT_TMP_A, pos);
	if (ch == '-' || ch == '+') {
		neg = ch == '-';
		pos++;
		ch = DT_TB(m, DT_TMP_A, pos);
	}
	if (base == 16 && ch == '0' && pos + 2 < strsize) {
		c1 = DT_TB(m, DT_TMP_A, pos + 1);
		c2 = DT_TB(m, DT_TMP_A, pos + 2);
		if ((c1 == 'x' || c1 == 'X') && dt_digit(c2) < 16)
			pos += 2;
	}
	dt_res_set(m, 1, neg);
	dt_res_set(m, 0, pos);
	pos = dt_res(m, 0) & (DT_TMP_SIZE - 1);
	end = dt_res(m, 2) & (DT_TMP_SIZE - 1);
	base = dt_res(m, 3) & 63;
#pragma clang loop unroll(disable)
	for (k = 0; k <= DT_BPF_STRFUNC_MAX; k++) {
		if (pos + k >= end || k >= strsize)
			break;
		x = dt_digit(DT_TB(m, DT_TMP_A, pos + k));
		if (x >= base)
			break;
		val = val * base + x;
	}
	dt_res_set(m, 0, val);
	val = dt_res(m, 0);
	return dt_res(m, 1) ? 0 - val : val;
}

/*
 * basename and dirname (illumos: basename("/") == "/", dirname("a") ==
 * "."): one forward pass finds the last non-slash (lastbase), the start of
 * the last component (firstbase) and the last non-slash before the slashes
 * in front of it (lastdir), as illumos' three backward scans do.
 */
#define DT_LASTBASE 0
#define DT_FIRSTBASE 1
#define DT_LASTDIR 2
DT_INLINE u64 dt_path(struct dt_bpf_mem *m, u64 strsize, u64 src, int dir)
{
	int64_t len, lastbase, firstbase, lastdir, start, end;
	u64 d, ch, prev, lb, fb, ld, ns, st;

	strsize = dt_fstrsize(strsize);
	len = dt_fetch(m, src, DT_TMP_A, strsize);
	if (len < 0)
		return 0;
	d = dt_alloc(m, strsize);
	if (!d)
		return 0;
	if (len == 0) {
		m->scratch[DT_TMP_A] = '.';
		m->scratch[DT_TMP_A + 1] = 0;
		len = 1;
	}
	dt_res_set(m, DT_LASTBASE, ~0ULL);
	dt_res_set(m, DT_FIRSTBASE, ~0ULL);
	dt_res_set(m, DT_LASTDIR, ~0ULL);
	prev = '/';
	lb = fb = ld = ~0ULL;
	dt_res_set(m, 3, d);
	dt_res_set(m, 4, (u64)len);
	len = (int64_t)(dt_res(m, 4) & (DT_TMP_SIZE - 1));
#pragma clang loop unroll(disable)
	for (u64 k = 0; k <= DT_BPF_STRFUNC_MAX; k++) {
		if (k >= (u64)len || k >= strsize)
			break;
		ch = DT_TB(m, DT_TMP_A, k);
		ns = dt_nz(ch ^ '/');
		st = ns & (1 - dt_nz(prev ^ '/')); /* a component starts */
		ld = dt_sel(st, lb, ld);
		fb = dt_sel(st, k, fb);
		lb = dt_sel(ns, k, lb);
		prev = ch;
	}
	dt_res_set(m, DT_LASTBASE, lb);
	dt_res_set(m, DT_FIRSTBASE, fb);
	dt_res_set(m, DT_LASTDIR, ld);
	lastbase = (int64_t)dt_res(m, DT_LASTBASE);
	firstbase = (int64_t)dt_res(m, DT_FIRSTBASE);
	lastdir = (int64_t)dt_res(m, DT_LASTDIR);
	d = dt_res(m, 3);
	if (lastbase == -1)
		firstbase = lastbase = lastdir = 0; /* all slashes: "/" */
	else if (firstbase == 0 && dir) { /* no slash before the base: "." */
		m->scratch[DT_CLAMP(DT_BPF_TAG_OFF(d), DT_SCRATCH_USABLE - 1)] = '.';
		return d;
	}
	if (dir) {
		if (lastdir == -1)
			lastdir = 0; /* only slashes before the base: "/" */
		start = 0;
		end = lastdir;
	} else {
		start = firstbase;
		end = lastbase;
	}
	if (end - start + 1 > (int64_t)strsize - 1)
		end = start + (int64_t)strsize - 2;
	if (end >= start)
		dt_tmp_to(m, d, 0, DT_TMP_A, (u64)start, (u64)(end - start + 1));
	return d;
}

DT_API u64 dt_subr_basename(struct dt_bpf_mem *m, u64 strsize, u64 s)
{
	return dt_path(m, strsize, s, 0);
}

DT_API u64 dt_subr_dirname(struct dt_bpf_mem *m, u64 strsize, u64 s)
{
	return dt_path(m, strsize, s, 1);
}

/*
 * copyinargs(uaddr, len): the user bytes [uaddr, uaddr + len) with each
 * NUL made a space but a final one dropped (dif_subr.c; psinfo_t's
 * pr_psargs), at most strsize - 1 of them. The bytes go to temporary A with one user copy, then a word
 * loop turns zero bytes into spaces without branches: a byte is zero
 * exactly when ((b & 0x7f) + 0x7f) | b has its high bit clear.
 */
DT_API u64 dt_subr_copyinargs(struct dt_bpf_mem *m, u64 strsize, u64 uaddr, u64 len)
{
	u64 d, n, w, z, keep, left;

	strsize = dt_fstrsize(strsize);
	n = len < strsize - 1 ? len : strsize - 1;
	d = dt_alloc(m, n + 1);
	if (!d)
		return 0;
	if (n && dt_xfer_((uint8_t *)m, DT_OFF(scratch) + DT_TMP_A, uaddr, n, DT_X_USER))
		return dt_fault(m, DTRACEFLT_BADADDR, dt_badaddr(uaddr, 1));
	if (n && DT_TB(m, DT_TMP_A, n - 1) == 0) /* the last argument's own NUL */
		n--;
	dt_res_set(m, 0, n);
	dt_res_set(m, 1, d);
	n = dt_res(m, 0) & (DT_TMP_SIZE - 1);
#pragma clang loop unroll(disable)
	for (u64 k = 0; k <= DT_BPF_STRFUNC_MAX / 8; k++) {
		if (k * 8 >= n)
			break;
		w = DT_TW(m, DT_TMP_A, k * 8);
		z = ~(((w & 0x7f7f7f7f7f7f7f7fULL) + 0x7f7f7f7f7f7f7f7fULL) | w |
		      0x7f7f7f7f7f7f7f7fULL);
		left = n - k * 8;
		keep = left >= 8 ? ~0ULL : (1ULL << ((left & 7) * 8)) - 1;
		DT_TW(m, DT_TMP_A, k * 8) = (w | (z >> 2)) & keep;
	}
	d = dt_res(m, 1);
	dt_tmp_to(m, d, 0, DT_TMP_A, 0, dt_res(m, 0));
	return d;
}
