// SPDX-License-Identifier: MIT
// The aggregating functions' arithmetic (see aggregate.hpp), following
// illumos dtrace.c dtrace_aggregate_*() bucket by bucket.
#include "aggregate.hpp"

#include <algorithm>
#include <limits>

namespace dt::engines::user {
namespace {

int64_t param(const aggregation &a, size_t i, int64_t dflt)
{
	return i < a.params.size() ? a.params[i] : dflt;
}

// lquantize: base, limit, step -> levels = (limit - base) / step.
int64_t lq_levels(const aggregation &a)
{
	int64_t step = param(a, 2, 1);
	return step > 0 ? (param(a, 1, 0) - param(a, 0, 0)) / step : 0;
}

// Unsigned 128-bit accumulation of value^2 into words [2] (low), [3] (high),
// as illumos dtrace_aggregate_stddev (dtrace_multiply_128/dtrace_add_128).
void add_square(std::span<int64_t> v, int64_t val)
{
	if (v.size() < 4)
		return;
	unsigned __int128 mag = val < 0 ? static_cast<uint64_t>(0) - static_cast<uint64_t>(val)
					: static_cast<uint64_t>(val);
	unsigned __int128 sq = mag * mag;
	unsigned __int128 acc =
		(static_cast<unsigned __int128>(static_cast<uint64_t>(v[3])) << 64) |
		static_cast<uint64_t>(v[2]);
	acc += sq;
	v[2] = static_cast<int64_t>(static_cast<uint64_t>(acc));
	v[3] = static_cast<int64_t>(static_cast<uint64_t>(acc >> 64));
}

} // namespace

uint32_t quantize_bucket(int64_t val)
{
	const uint32_t zero = DTRACE_QUANTIZE_ZEROBUCKET;
	if (val < 0) {
		for (uint32_t i = 0; i < zero; i++)
			if (val <= DTRACE_QUANTIZE_BUCKETVAL(i))
				return i;
		return zero - 1; // unreachable: bucket 0 is INT64_MIN
	}
	for (uint32_t i = zero + 1; i < DTRACE_QUANTIZE_NBUCKETS; i++)
		if (val < DTRACE_QUANTIZE_BUCKETVAL(i))
			return i - 1;
	return DTRACE_QUANTIZE_NBUCKETS - 1;
}

uint32_t lquantize_bucket(int64_t base, int64_t step, int64_t levels, int64_t nval)
{
	// illumos keeps the value, base and level in 32 bits.
	auto val = static_cast<int32_t>(nval);
	auto b = static_cast<int32_t>(base);
	if (val < b)
		return 0;
	int64_t level = (static_cast<int64_t>(val) - b) / std::max<int64_t>(step, 1);
	if (level < levels)
		return static_cast<uint32_t>(level + 1);
	return static_cast<uint32_t>(levels + 1);
}

uint32_t llquantize_bucket(int64_t factor, int64_t low, int64_t high, int64_t nsteps, int64_t value)
{
	int64_t cur = 1, last, next;
	int64_t base = 1, order;

	for (order = 0; order < low; order++)
		cur *= factor;
	if (value < (last = cur))
		return 0;
	for (cur *= factor; order <= high; order++) {
		int64_t nbuckets = cur > nsteps ? nsteps : cur;

		if (__builtin_mul_overflow(cur, factor, &next) || next < cur) {
			next = std::numeric_limits<int64_t>::max();
			value = cur - 1; // illumos clamps rather than overflow
		}
		if (value < cur)
			return static_cast<uint32_t>(base + (value - last) / (cur / nbuckets));
		base += nbuckets - (nbuckets / factor);
		last = cur;
		cur = next;
	}
	return static_cast<uint32_t>(base);
}

uint32_t llquantize_nbuckets(int64_t factor, int64_t low, int64_t high, int64_t nsteps)
{
	return llquantize_bucket(factor, low, high, nsteps, std::numeric_limits<int64_t>::max()) +
	       1;
}

uint32_t agg_nwords(const aggregation &a)
{
	switch (a.func) {
	case DTRACEAGG_AVG: return 2;
	case DTRACEAGG_STDDEV: return 4;
	case DTRACEAGG_QUANTIZE: return DTRACE_QUANTIZE_NBUCKETS;
	case DTRACEAGG_LQUANTIZE: return static_cast<uint32_t>(lq_levels(a) + 2);
	case DTRACEAGG_LLQUANTIZE:
		return llquantize_nbuckets(param(a, 0, 10), param(a, 1, 0), param(a, 2, 0),
					   param(a, 3, 10));
	default: return 1;
	}
}

std::vector<int64_t> agg_init(const aggregation &a)
{
	// The program's word count is what the consumer expects; ours only
	// when it is missing.
	std::vector<int64_t> v(a.nwords != 0 ? a.nwords : agg_nwords(a), 0);
	if (a.func == DTRACEAGG_MIN)
		v[0] = std::numeric_limits<int64_t>::max();
	else if (a.func == DTRACEAGG_MAX)
		v[0] = std::numeric_limits<int64_t>::min();
	return v;
}

void agg_apply(const aggregation &a, std::span<int64_t> v, int64_t val, int64_t incr)
{
	auto add = [&](uint32_t i, int64_t n) {
		if (i < v.size())
			v[i] = static_cast<int64_t>(static_cast<uint64_t>(v[i]) +
						    static_cast<uint64_t>(n));
	};
	switch (a.func) {
	case DTRACEAGG_COUNT: add(0, 1); break;
	case DTRACEAGG_SUM: add(0, val); break;
	case DTRACEAGG_MIN:
		if (!v.empty())
			v[0] = std::min(v[0], val);
		break;
	case DTRACEAGG_MAX:
		if (!v.empty())
			v[0] = std::max(v[0], val);
		break;
	case DTRACEAGG_AVG:
		add(0, 1);
		add(1, val);
		break;
	case DTRACEAGG_STDDEV:
		add(0, 1);
		add(1, val);
		add_square(v, val);
		break;
	case DTRACEAGG_QUANTIZE: add(quantize_bucket(val), incr); break;
	case DTRACEAGG_LQUANTIZE:
		add(lquantize_bucket(param(a, 0, 0), param(a, 2, 1), lq_levels(a), val), incr);
		break;
	case DTRACEAGG_LLQUANTIZE:
		add(llquantize_bucket(param(a, 0, 10), param(a, 1, 0), param(a, 2, 0),
				      param(a, 3, 10), val),
		    incr);
		break;
	default: break;
	}
}

void agg_merge(const aggregation &a, std::span<int64_t> into, std::span<const int64_t> from)
{
	size_t n = std::min(into.size(), from.size());
	switch (a.func) {
	case DTRACEAGG_MIN:
		if (n != 0)
			into[0] = std::min(into[0], from[0]);
		return;
	case DTRACEAGG_MAX:
		if (n != 0)
			into[0] = std::max(into[0], from[0]);
		return;
	case DTRACEAGG_STDDEV: {
		if (n < 4)
			return;
		into[0] += from[0];
		into[1] += from[1];
		unsigned __int128 x =
			(static_cast<unsigned __int128>(static_cast<uint64_t>(into[3])) << 64) |
			static_cast<uint64_t>(into[2]);
		unsigned __int128 y =
			(static_cast<unsigned __int128>(static_cast<uint64_t>(from[3])) << 64) |
			static_cast<uint64_t>(from[2]);
		x += y;
		into[2] = static_cast<int64_t>(static_cast<uint64_t>(x));
		into[3] = static_cast<int64_t>(static_cast<uint64_t>(x >> 64));
		return;
	}
	default:
		for (size_t i = 0; i < n; i++)
			into[i] = static_cast<int64_t>(static_cast<uint64_t>(into[i]) +
						       static_cast<uint64_t>(from[i]));
	}
}

} // namespace dt::engines::user
