// SPDX-License-Identifier: GPL-2.0
/*
 * agg.c - aggregations in the kernel: the per-CPU aggregation buffer the
 * aggregating functions fold into. Their arithmetic (illumos
 * dtrace_aggregate_count ... _llquantize, on the value layouts of
 * uapi/dtrace/actions.h) is core/dif/dif_agg.h, the same source userspace
 * and the BPF library use: static inline, so it is compiled into
 * dtrace_aggregate() here (probe context, not traced, not kprobed).
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
#include <linux/string.h>

#include "dtrace_impl.h"
#include "dif_agg.h"	/* core/dif: the arithmetic, shared with userspace and BPF */

/* ==== Arithmetic =================================================== */

/*
 * The words of value for func with these parameters, checking that they
 * keep the arithmetic bounded (the kernel does not trust the compiler) and
 * fit this module's buffers.
 */
u32 dtrace_agg_nwords(u16 func, const s64 *p, u32 np, bool *ok)
{
	u32 n = dif_agg_nwords(func, p, np);

	*ok = n != 0 && n <= DTRACE_MAX_AGGWORDS;
	return *ok ? n : 0;
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
	u32 keyspace = round_up(agg->keysize, 8);
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
	dif_agg_init(agg->func, words, agg->nwords);
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
	dif_agg_apply(agg->func, agg->params, ARRAY_SIZE(agg->params),
		      (s64 *)((u8 *)(e + 1) + round_up(agg->keysize, 8)), agg->nwords, val, incr);
	return true;
}
NOKPROBE_SYMBOL(dtrace_aggregate);
