// SPDX-License-Identifier: GPL-2.0
/*
 * agg.c - aggregations in the kernel: the aggregating functions'
 * arithmetic (illumos dtrace_aggregate_count ... _llquantize, on the value
 * layouts of uapi/dtrace/actions.h) and the per-CPU aggregation buffer
 * they fold into.
 *
 * One CPU's aggregation buffer (illumos keeps data at the base and its
 * hash at the limit too):
 *
 *   data ─► [ aggrec | key, 8-aligned | words ] [ aggrec | ... ] ... used
 *   buckets[nbuckets]: 1 + offset of the first entry of each chain, 0 none;
 *   aggrec.dtag_link:  1 + offset of the next entry in its chain
 *
 * Only the CPU that owns the active buffer writes it (probe context,
 * interrupts off). The consumer's AGGSNAP switches active and inactive
 * (buffer.c) and copies the inactive data [0, used) out as it is: the
 * dtrace_aggrec_t records of the uapi. Values are deltas since the
 * previous snapshot; userspace merges (illumos dt_aggregate.c).
 */
#include <linux/jhash.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/overflow.h>
#include <linux/string.h>

#include "dtrace_impl.h"

/* ==== Arithmetic =================================================== */

static u32 dtrace_quantize_bucket(s64 val)
{
	const u32 zero = DTRACE_QUANTIZE_ZEROBUCKET;
	u32 i;

	if (val < 0) {
		for (i = 0; i < zero; i++)
			if (val <= DTRACE_QUANTIZE_BUCKETVAL(i))
				return i;
		return zero - 1;
	}
	for (i = zero + 1; i < DTRACE_QUANTIZE_NBUCKETS; i++)
		if (val < DTRACE_QUANTIZE_BUCKETVAL(i))
			return i - 1;
	return DTRACE_QUANTIZE_NBUCKETS - 1;
}

/* lquantize keeps value, base and level in 32 bits, as illumos does. */
static u32 dtrace_lquantize_bucket(s64 base, s64 step, s64 levels, s64 nval)
{
	s32 val = (s32)nval, b = (s32)base;
	s64 level;

	if (val < b)
		return 0;
	level = ((s64)val - b) / step;
	if (level < levels)
		return (u32)(level + 1);
	return (u32)(levels + 1);
}

/* Parameters are checked by dtrace_agg_nwords() first: no overflow here. */
static u32 dtrace_llquantize_bucket(s64 factor, s64 low, s64 high, s64 nsteps, s64 value)
{
	s64 cur = 1, last, next, base = 1, order;

	for (order = 0; order < low; order++)
		cur *= factor;
	last = cur;
	if (value < last)
		return 0;
	for (cur *= factor; order <= high; order++) {
		s64 nbuckets = cur > nsteps ? nsteps : cur;

		if (check_mul_overflow(cur, factor, &next) || next < cur) {
			next = S64_MAX;
			value = cur - 1;	/* illumos clamps rather than overflow */
		}
		if (value < cur)
			return (u32)(base + (value - last) / (cur / nbuckets));
		base += nbuckets - (nbuckets / factor);
		last = cur;
		cur = next;
	}
	return (u32)base;
}

/*
 * The words of value for func with these parameters, checking that they
 * keep the arithmetic bounded (the kernel does not trust the compiler).
 */
u32 dtrace_agg_nwords(u16 func, const s64 *p, u32 np, bool *ok)
{
	s64 cur, levels;
	u32 n;
	int i;

	*ok = true;
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
		/* base, limit, step */
		if (np < 3 || p[2] <= 0 || p[2] > INT_MAX || p[0] < INT_MIN || p[0] > INT_MAX ||
		    p[1] <= p[0] || p[1] > INT_MAX)
			break;
		levels = (p[1] - p[0]) / p[2];
		if (levels < 1 || levels > DTRACE_MAX_AGGWORDS - 2)
			break;
		return (u32)levels + 2;
	case DTRACEAGG_LLQUANTIZE:
		/* factor, low, high, nsteps */
		if (np < 4 || p[0] < 2 || p[0] > 65535 || p[1] < 0 || p[2] < p[1] ||
		    p[2] > 63 || p[3] < 1 || p[3] > 65535)
			break;
		cur = 1;
		for (i = 0; i <= p[1]; i++)
			if (check_mul_overflow(cur, p[0], &cur))
				goto bad;
		n = dtrace_llquantize_bucket(p[0], p[1], p[2], p[3], S64_MAX) + 1;
		if (n > DTRACE_MAX_AGGWORDS)
			break;
		return n;
	default:
		break;
	}
bad:
	*ok = false;
	return 0;
}

static void dtrace_agg_apply(const struct dtrace_aggdesc *agg, s64 *v, s64 val, s64 incr)
{
	unsigned __int128 acc, mag;
	u32 b;

	switch (agg->func) {
	case DTRACEAGG_COUNT:
		v[0]++;
		break;
	case DTRACEAGG_SUM:
		v[0] = (s64)((u64)v[0] + (u64)val);
		break;
	case DTRACEAGG_MIN:
		if (val < v[0])
			v[0] = val;
		break;
	case DTRACEAGG_MAX:
		if (val > v[0])
			v[0] = val;
		break;
	case DTRACEAGG_AVG:
		v[0]++;
		v[1] = (s64)((u64)v[1] + (u64)val);
		break;
	case DTRACEAGG_STDDEV:
		v[0]++;
		v[1] = (s64)((u64)v[1] + (u64)val);
		mag = val < 0 ? (u64)0 - (u64)val : (u64)val;
		acc = ((unsigned __int128)(u64)v[3] << 64) | (u64)v[2];
		acc += mag * mag;
		v[2] = (s64)(u64)acc;
		v[3] = (s64)(u64)(acc >> 64);
		break;
	case DTRACEAGG_QUANTIZE:
		b = dtrace_quantize_bucket(val);
		v[b] = (s64)((u64)v[b] + (u64)incr);
		break;
	case DTRACEAGG_LQUANTIZE:
		b = dtrace_lquantize_bucket(agg->params[0], agg->params[2], agg->nwords - 2, val);
		if (b < agg->nwords)
			v[b] = (s64)((u64)v[b] + (u64)incr);
		break;
	case DTRACEAGG_LLQUANTIZE:
		b = dtrace_llquantize_bucket(agg->params[0], agg->params[1], agg->params[2],
					     agg->params[3], val);
		if (b < agg->nwords)
			v[b] = (s64)((u64)v[b] + (u64)incr);
		break;
	}
}

/* ==== The buffer ==================================================== */

void dtrace_aggbuf_reset(struct dtrace_aggbuf *ab)
{
	ab->used = 0;
	ab->drops = 0;
	if (ab->buckets)
		memset(ab->buckets, 0, ab->nbuckets * sizeof(u32));
}

static dtrace_aggrec_t *dtrace_agg_find(struct dtrace_aggbuf *ab, u32 h,
					const struct dtrace_aggdesc *agg, const u8 *key)
{
	dtrace_aggrec_t *e;
	u32 off;

	for (off = ab->buckets[h]; off; off = e->dtag_link) {
		e = (dtrace_aggrec_t *)(ab->data + off - 1);
		if (e->dtag_aggid == agg->id && !memcmp(e + 1, key, agg->keysize))
			return e;
	}
	return NULL;
}

/* A new entry with the function's identity value, or NULL (counted). */
static dtrace_aggrec_t *dtrace_agg_insert(struct dtrace_aggbuf *ab, u32 h,
					  const struct dtrace_aggdesc *agg, const u8 *key)
{
	u32 keyspace = round_up(agg->keysize, 8), i;
	u64 need = sizeof(dtrace_aggrec_t) + keyspace + (u64)agg->nwords * 8;
	dtrace_aggrec_t *e;
	s64 *words;

	if (need > ab->size || ab->used > ab->size - need) {
		ab->drops++;
		return NULL;
	}
	e = (dtrace_aggrec_t *)(ab->data + ab->used);
	e->dtag_aggid = agg->id;
	e->dtag_keysize = agg->keysize;
	e->dtag_nwords = agg->nwords;
	e->dtag_link = ab->buckets[h];
	memcpy(e + 1, key, agg->keysize);
	memset((u8 *)(e + 1) + agg->keysize, 0, keyspace - agg->keysize);
	words = (s64 *)((u8 *)(e + 1) + keyspace);
	for (i = 0; i < agg->nwords; i++)
		words[i] = 0;
	if (agg->func == DTRACEAGG_MIN)
		words[0] = S64_MAX;
	else if (agg->func == DTRACEAGG_MAX)
		words[0] = S64_MIN;
	ab->buckets[h] = (u32)ab->used + 1;
	ab->used += need;
	return e;
}

bool dtrace_aggregate(struct dtrace_aggbuf *ab, const struct dtrace_aggdesc *agg,
		      const u8 *key, s64 val, s64 incr)
{
	dtrace_aggrec_t *e;
	u32 h;

	if (!ab->data || !ab->nbuckets) {
		ab->drops++;
		return false;
	}
	h = jhash(key, agg->keysize, agg->id) & (ab->nbuckets - 1);
	e = dtrace_agg_find(ab, h, agg, key);
	if (!e)
		e = dtrace_agg_insert(ab, h, agg, key);
	if (!e)
		return false;
	dtrace_agg_apply(agg, (s64 *)((u8 *)(e + 1) + round_up(agg->keysize, 8)), val, incr);
	return true;
}
NOKPROBE_SYMBOL(dtrace_aggregate);
