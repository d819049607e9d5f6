/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * agg.bpf.c - aggregation bucket indexes: the library's entry points for
 * the arithmetic of core/dif/dif_agg.h, the one source the compiler, the
 * user engine, dtrace.ko and the consumer use too (illumos
 * dtrace_aggregate_*quantize). dt_agg_qbin has no loop (a six-step binary
 * log), so a program with a hundred quantize() clauses stays cheap to
 * verify; dt_agg_llqbin's loops are bounded by constants.
 */
#include "dt_lib_impl.h"

#include "dif_agg.h"

DT_API u64 dt_agg_qbin(u64 val)
{
	return dif_agg_quantize_bucket((int64_t)val);
}

DT_API u64 dt_agg_lqbin(u64 val, u64 base, u64 step, u64 levels)
{
	return dif_agg_lquantize_bucket((int64_t)base, (int64_t)step, (uint32_t)levels,
					(int64_t)val);
}

DT_API u64 dt_agg_llqbin(u64 val, u64 factor, u64 low, u64 high, u64 nsteps)
{
	return dif_agg_llquantize_bucket((int64_t)factor, (int64_t)low, (int64_t)high,
					 (int64_t)nsteps, (int64_t)val);
}
