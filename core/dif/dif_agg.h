/* SPDX-License-Identifier: MIT */
/*
 * dif_agg.h - the aggregating functions' arithmetic, once, for everyone who
 * computes with aggregation values: the compiler (value sizes), the user
 * engine (fold), dtrace.ko (kmod/core/agg.c: fold in probe context), the
 * BPF library (core/engine/bpf/lib/agg.bpf.c: bucket indexes; the
 * translator emits the other folds as instructions), the bpf runtime and
 * the consumer (merge per-CPU values and deltas, bucket edges to print).
 * It follows illumos dtrace.c (dtrace_aggregate_count ... _llquantize,
 * dtrace_multiply_128) and dt_consume.c / dt_aggregate.c (the edges).
 *
 *   value sizes   dif_agg_nwords(func, params)         0: bad function/params
 *                 dif_agg_lquantize_levels(base, limit, step)
 *   buckets       dif_agg_quantize_bucket(val)          0 .. 126
 *                 dif_agg_lquantize_bucket(...)         0 .. levels + 1
 *                 dif_agg_llquantize_bucket(...)        0 .. nwords - 1
 *   edges         dif_agg_llquantize_edges(...)         what each bucket holds
 *   values        dif_agg_identity / _init / _apply / _merge
 *
 * Value layouts are those of uapi/dtrace/actions.h (no encoded-parameter
 * word: the parameters are the program's, int64_t params[] in the order of
 * the D arguments: lquantize base, limit, step; llquantize factor, low,
 * high, nsteps).
 *
 * One header of static inline functions, because BPF C cannot call a
 * function of another object: freestanding C (no libc, no floating point,
 * no 128-bit integers, no recursion), which also compiles as C++. Every
 * loop is bounded by a constant (the BPF verifier on Linux 6.1), every
 * division is of non-negative values done unsigned (BPF before cpu v4 has
 * no signed division), and arithmetic that may wrap is done unsigned.
 * The kcheck target (core/dif/CMakeLists.txt) compiles this header with
 * kernel-like flags and DIF_AGG_API empty, and checks that the result
 * needs no symbol from outside.
 */
#ifndef DTRACE_DIF_AGG_H
#define DTRACE_DIF_AGG_H

#if defined(__bpf__)
/* BPF C has no libc headers: dt_bpf_abi.h has typedef'd the fixed-width types. */
#elif defined(__KERNEL__)
#include <linux/types.h>
#else
#include <stdint.h>
#endif

#include <uapi/dtrace/actions.h> /* kmod/include is on the include path */

#ifndef DIF_AGG_API
#ifdef __bpf__
#define DIF_AGG_API static inline __attribute__((always_inline))
#else
#define DIF_AGG_API static inline
#endif
#endif

#define DIF_AGG_INT64_MAX ((int64_t)0x7fffffffffffffffLL)
#define DIF_AGG_INT64_MIN (-DIF_AGG_INT64_MAX - 1)
#define DIF_AGG_INT32_MAX 0x7fffffffLL
#define DIF_AGG_INT32_MIN (-DIF_AGG_INT32_MAX - 1)
#define DIF_AGG_ZERO ((uint32_t)DTRACE_QUANTIZE_ZEROBUCKET) /* 63 */

/* a + b, wrapping (illumos adds uint64_t words). */
DIF_AGG_API int64_t dif_agg_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* ==== Buckets ===================================================== */

/* floor(log2(v)) for v >= 1, without a loop (cheap for the verifier). */
DIF_AGG_API uint32_t dif_agg_log2(uint64_t v)
{
	uint32_t r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/*
 * quantize: the bucket of val, as illumos dtrace_aggregate_quantize's walk
 * of DTRACE_QUANTIZE_BUCKETVAL(): 63 holds 0; 64 + k holds [2^k, 2^(k+1))
 * (126 everything from 2^62); 62 - k holds [-(2^(k+1)) + 1, -(2^k)]
 * (0 everything to INT64_MIN).
 */
DIF_AGG_API uint32_t dif_agg_quantize_bucket(int64_t val)
{
	uint32_t l;

	if (val == 0)
		return DIF_AGG_ZERO;
	if (val > 0)
		return DIF_AGG_ZERO + 1 + dif_agg_log2((uint64_t)val);
	l = dif_agg_log2((uint64_t)0 - (uint64_t)val); /* |val|, INT64_MIN included */
	return l >= DIF_AGG_ZERO - 1 ? 0 : DIF_AGG_ZERO - 1 - l;
}

/*
 * lquantize(val, base, limit, step): levels = (limit - base) / step, or 0
 * for parameters illumos refuses (base and limit 32-bit, base < limit, step
 * 1 .. INT32_MAX, 1 .. 65535 levels: illumos keeps levels in 16 bits).
 */
DIF_AGG_API uint32_t dif_agg_lquantize_levels(int64_t base, int64_t limit, int64_t step)
{
	uint64_t levels;

	if (step < 1 || step > DIF_AGG_INT32_MAX || base < DIF_AGG_INT32_MIN ||
	    limit > DIF_AGG_INT32_MAX || limit <= base)
		return 0;
	levels = (uint64_t)(limit - base) / (uint64_t)step;
	return levels > 65535 ? 0 : (uint32_t)levels;
}

/*
 * lquantize: 0 below base, 1 + (val - base) / step, levels + 1 from
 * base + levels * step. The value and base are 32-bit as in illumos; the
 * difference is 64-bit (illumos' 32-bit difference can overflow).
 */
DIF_AGG_API uint32_t dif_agg_lquantize_bucket(int64_t base, int64_t step, uint32_t levels,
					      int64_t val)
{
	int64_t v = (int)val, b = (int)base;
	uint64_t level;

	if (v < b)
		return 0;
	if (step < 1)
		step = 1;
	level = (uint64_t)(v - b) / (uint64_t)step;
	return level < levels ? (uint32_t)level + 1 : levels + 1;
}

/*
 * llquantize: illumos dtrace_aggregate_llquantize_bucket. Bucket 0 holds
 * what is below factor^low; each order of magnitude o (low .. high) has
 * min(factor^(o+1), nsteps) steps of which the ones below factor^o
 * (a 1/factor part) belong to the order below; the last bucket holds
 * factor^(high+1) and up. As illumos, an order whose top factor^(o+1)
 * could not be multiplied by factor in 63 bits puts every value that
 * reaches it, its own included, into its last step (only parameters with
 * factor^(high+2) near 2^63 meet this; illumos tests the product's sign,
 * undefined behaviour that misses some overflows; this tests exactly).
 * dif_agg_nwords() checks the parameters (factor^(low+1) fits); a factor
 * below 2 gives 0 rather than loop.
 */
DIF_AGG_API uint32_t dif_agg_llquantize_bucket(int64_t factor, int64_t low, int64_t high,
					       int64_t nsteps, int64_t value)
{
	int64_t cur = 1, last, nb, order;
	uint64_t base = 1;
	int i;

	if (factor < 2)
		return 0;
#ifdef __bpf__
#pragma clang loop unroll(disable)
#endif
	for (order = 0; order < low && order < 64; order++)
		cur = (int64_t)((uint64_t)cur * (uint64_t)factor);
	last = cur;
	if (value < last)
		return 0;
	cur = (int64_t)((uint64_t)cur * (uint64_t)factor);
#ifdef __bpf__
#pragma clang loop unroll(disable)
#endif
	for (i = 0; i < 65 && order <= high; i++, order++) {
		int64_t next;

		nb = cur > nsteps ? nsteps : cur;
		if (nb < 1)
			nb = 1;
		if ((uint64_t)cur > (uint64_t)DIF_AGG_INT64_MAX / (uint64_t)factor) {
			next = DIF_AGG_INT64_MAX;
			value = cur - 1;
		} else {
			next = cur * factor;
		}
		if (value < cur)
			return (uint32_t)(base + (uint64_t)(value - last) / ((uint64_t)cur / (uint64_t)nb));
		base += (uint64_t)nb - (uint64_t)nb / (uint64_t)factor;
		last = cur;
		cur = next;
	}
	return (uint32_t)base;
}

/*
 * llquantize's bucket edges, as illumos dt_print_llquantize walks them:
 * edges[0] = factor^low (bucket 0 holds what is below it), edges[i] the
 * lowest value of bucket i. Fills edges[0 .. n) and returns the index of
 * the bucket that holds factor^(high+1) and up (the last bucket when n is
 * dif_agg_nwords()); edges past it repeat its edge. Parameters as checked
 * by dif_agg_nwords().
 */
DIF_AGG_API uint32_t dif_agg_llquantize_edges(int64_t factor, int64_t low, int64_t high,
					      int64_t nsteps, int64_t *edges, uint32_t n)
{
	uint64_t value = 1, next, step, f = (uint64_t)factor, ns = (uint64_t)nsteps;
	int64_t order;
	uint32_t bin, top;

	if (n == 0 || factor < 2 || nsteps < 1)
		return 0;
	for (order = 0; order < low && order < 64; order++)
		value *= f;
	edges[0] = (int64_t)value;
	next = value * f;
	step = next > ns ? next / ns : 1;
	for (bin = 1; order <= high && bin < n;) {
		edges[bin++] = (int64_t)value;
		if ((value += step) != next)
			continue;
		next = value * f;
		step = next > ns ? next / ns : 1;
		order++;
	}
	top = bin;
	for (; bin < n; bin++)
		edges[bin] = (int64_t)value;
	return top;
}

/* ==== Value sizes ================================================== */

/*
 * The words of value of func with these parameters (the layouts of
 * uapi/dtrace/actions.h), or 0 for an unknown function or parameters that
 * would not keep the arithmetic bounded. llquantize: 2 <= factor <= 65535,
 * 0 <= low <= high <= 63, 1 <= nsteps <= 65535, factor^(low+1) fits in
 * 63 bits; its size is the bucket of INT64_MAX, plus one.
 */
DIF_AGG_API uint32_t dif_agg_nwords(uint32_t func, const int64_t *p, uint32_t np)
{
	uint64_t cur;
	uint32_t levels;
	int64_t i;

	switch (func) {
	case DTRACEAGG_COUNT:
	case DTRACEAGG_SUM:
	case DTRACEAGG_MIN:
	case DTRACEAGG_MAX:
		return 1;
	case DTRACEAGG_AVG:
		return 2;
	case DTRACEAGG_STDDEV:
		return 4;
	case DTRACEAGG_QUANTIZE:
		return DTRACE_QUANTIZE_NBUCKETS;
	case DTRACEAGG_LQUANTIZE:
		if (np < 3)
			return 0;
		levels = dif_agg_lquantize_levels(p[0], p[1], p[2]);
		return levels ? levels + 2 : 0;
	case DTRACEAGG_LLQUANTIZE:
		if (np < 4 || p[0] < 2 || p[0] > 65535 || p[1] < 0 || p[2] < p[1] || p[2] > 63 ||
		    p[3] < 1 || p[3] > 65535)
			return 0;
		cur = 1;
		for (i = 0; i <= p[1] && i < 64; i++) {
			if (cur > (uint64_t)DIF_AGG_INT64_MAX / (uint64_t)p[0])
				return 0;
			cur *= (uint64_t)p[0];
		}
		return dif_agg_llquantize_bucket(p[0], p[1], p[2], p[3], DIF_AGG_INT64_MAX) + 1;
	default:
		return 0;
	}
}

/* ==== Values ====================================================== */

/* The value a fresh entry starts from: min INT64_MAX, max INT64_MIN, else 0. */
DIF_AGG_API int64_t dif_agg_identity(uint32_t func)
{
	if (func == DTRACEAGG_MIN)
		return DIF_AGG_INT64_MAX;
	if (func == DTRACEAGG_MAX)
		return DIF_AGG_INT64_MIN;
	return 0;
}

DIF_AGG_API void dif_agg_init(uint32_t func, int64_t *v, uint32_t nwords)
{
	uint32_t i;

	for (i = 0; i < nwords; i++)
		v[i] = 0;
	if (nwords)
		v[0] = dif_agg_identity(func);
}

/* w[0] (low), w[1] (high) += hi:lo, unsigned 128-bit (dtrace_add_128). */
DIF_AGG_API void dif_agg_add128(int64_t *w, uint64_t lo, uint64_t hi)
{
	uint64_t l = (uint64_t)w[0] + lo;

	w[1] = (int64_t)((uint64_t)w[1] + hi + (l < lo));
	w[0] = (int64_t)l;
}

/* w[0..1] += val * val, unsigned 128-bit (dtrace_multiply_128 of |val|). */
DIF_AGG_API void dif_agg_add_square(int64_t *w, int64_t val)
{
	uint64_t m = val < 0 ? (uint64_t)0 - (uint64_t)val : (uint64_t)val;
	uint64_t lo = m & 0xffffffffULL, hi = m >> 32, cross = lo * hi;

	dif_agg_add128(w, lo * lo, hi * hi);
	dif_agg_add128(w, cross << 32, cross >> 32);
	dif_agg_add128(w, cross << 32, cross >> 32);
}

/*
 * Fold val into v[0 .. nwords) (incr: the quantizations' weight). A bucket
 * past nwords (parameters that disagree with the size) is not counted.
 */
DIF_AGG_API void dif_agg_apply(uint32_t func, const int64_t *p, uint32_t np, int64_t *v,
			       uint32_t nwords, int64_t val, int64_t incr)
{
	uint32_t b;

	if (nwords == 0)
		return;
	switch (func) {
	case DTRACEAGG_COUNT:
		v[0] = dif_agg_add(v[0], 1);
		return;
	case DTRACEAGG_SUM:
		v[0] = dif_agg_add(v[0], val);
		return;
	case DTRACEAGG_MIN:
		if (val < v[0])
			v[0] = val;
		return;
	case DTRACEAGG_MAX:
		if (val > v[0])
			v[0] = val;
		return;
	case DTRACEAGG_AVG:
	case DTRACEAGG_STDDEV:
		if (nwords < (func == DTRACEAGG_AVG ? 2U : 4U))
			return;
		v[0] = dif_agg_add(v[0], 1);
		v[1] = dif_agg_add(v[1], val);
		if (func == DTRACEAGG_STDDEV)
			dif_agg_add_square(v + 2, val);
		return;
	case DTRACEAGG_QUANTIZE:
		b = dif_agg_quantize_bucket(val);
		break;
	case DTRACEAGG_LQUANTIZE:
		if (np < 3 || nwords < 2)
			return;
		b = dif_agg_lquantize_bucket(p[0], p[2], nwords - 2, val);
		break;
	case DTRACEAGG_LLQUANTIZE:
		if (np < 4)
			return;
		b = dif_agg_llquantize_bucket(p[0], p[1], p[2], p[3], val);
		break;
	default:
		return;
	}
	if (b < nwords)
		v[b] = dif_agg_add(v[b], incr);
}

/*
 * Fold the partial value from into into (illumos dt_aggregate.c: min/max
 * compare, stddev adds its 128-bit sum of squares, everything else adds
 * word by word).
 */
DIF_AGG_API void dif_agg_merge(uint32_t func, int64_t *into, const int64_t *from,
			       uint32_t nwords)
{
	uint32_t i;

	if (nwords == 0)
		return;
	switch (func) {
	case DTRACEAGG_MIN:
		if (from[0] < into[0])
			into[0] = from[0];
		return;
	case DTRACEAGG_MAX:
		if (from[0] > into[0])
			into[0] = from[0];
		return;
	case DTRACEAGG_STDDEV:
		if (nwords < 4)
			break;
		into[0] = dif_agg_add(into[0], from[0]);
		into[1] = dif_agg_add(into[1], from[1]);
		dif_agg_add128(into + 2, (uint64_t)from[2], (uint64_t)from[3]);
		return;
	default:
		break;
	}
	for (i = 0; i < nwords; i++)
		into[i] = dif_agg_add(into[i], from[i]);
}

#endif /* DTRACE_DIF_AGG_H */
