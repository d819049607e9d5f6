/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * agg.bpf.c - aggregation bucket indexes, the same functions as
 * core/engine/user/aggregate.cc (quantize_bucket, lquantize_bucket,
 * llquantize_bucket), which follow illumos dtrace_aggregate_*quantize.
 * dt_agg_qbin has no loop (a six-step binary log), so a program with a
 * hundred quantize() clauses stays cheap to verify. BPF has only unsigned
 * division: every division here is of non-negative values.
 */
#include "dt_lib_impl.h"

/* floor(log2(v)) for v >= 1. */
DT_INLINE u64 dt_log2(u64 v)
{
	u64 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

/*
 * quantize: buckets 0..62 hold -2^62..-1 (val <= -2^(62-i)), 63 holds 0,
 * 64 + log2(val) the positive values.
 */
DT_API u64 dt_agg_qbin(u64 val)
{
	int64_t v = (int64_t)val;
	u64 l;

	if (v == 0)
		return 63;
	if (v > 0)
		return 64 + dt_log2(val);
	l = dt_log2(0 - val); /* magnitude, INT64_MIN included */
	return l >= 62 ? 0 : 62 - l;
}

/* lquantize: value, base and level in 32 bits as illumos. */
DT_API u64 dt_agg_lqbin(u64 val, u64 base, u64 step, u64 levels)
{
	int64_t v = (int)val, b = (int)base, s = (int64_t)step, level;

	if (v < b)
		return 0;
	if (s < 1)
		s = 1;
	level = (int64_t)((u64)(v - b) / (u64)s);
	if (level < (int64_t)levels)
		return level + 1;
	return levels + 1;
}

DT_API u64 dt_agg_llqbin(u64 val, u64 factor, u64 low, u64 high, u64 nsteps)
{
	int64_t value = (int64_t)val, f = (int64_t)factor, lo = (int64_t)low;
	int64_t hi = (int64_t)high, ns = (int64_t)nsteps;
	int64_t cur = 1, last, next, base = 1, order, nb;

	if (f < 2)
		return 0;
#pragma clang loop unroll(disable)
	for (order = 0; order < lo && order < 64; order++)
		cur *= f;
	if (value < (last = cur))
		return 0;
	cur *= f;
#pragma clang loop unroll(disable)
	for (int i = 0; i < 64 && order <= hi; i++, order++) {
		nb = cur > ns ? ns : cur;
		if (nb < 1)
			nb = 1;
		if ((u64)cur > (u64)0x7fffffffffffffffLL / (u64)f) {
			next = 0x7fffffffffffffffLL;
			value = cur - 1;
		} else {
			next = cur * f;
		}
		if (value < cur)
			return base + (int64_t)((u64)(value - last) / ((u64)cur / (u64)nb));
		base += nb - (int64_t)((u64)nb / (u64)f);
		last = cur;
		cur = next;
	}
	return base;
}
