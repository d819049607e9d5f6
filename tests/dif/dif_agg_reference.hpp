// SPDX-License-Identifier: MIT
//
// dif_agg_reference.hpp - the aggregation arithmetic of illumos dtrace.c
// and dt_consume.c written out plainly (loops over the bucket values,
// 128-bit integers), as the oracle for core/dif/dif_agg.h: the unit tests
// (dif_agg_test.cc) and the BPF library's tests compare with it. Where
// illumos has undefined behaviour (a 32-bit lquantize difference, a
// signed-overflow test in llquantize) this computes the exact result.
#pragma once

#include <uapi/dtrace/actions.h>

#include <cstdint>
#include <vector>

namespace dt::test::agg_ref {

// dtrace_aggregate_quantize: the first bucket whose value bounds val.
inline uint32_t quantize(int64_t val)
{
	const uint32_t zero = DTRACE_QUANTIZE_ZEROBUCKET;
	if (val < 0) {
		for (uint32_t i = 0; i < zero; i++)
			if (val <= DTRACE_QUANTIZE_BUCKETVAL(i))
				return i;
		return 0;
	}
	for (uint32_t i = zero + 1; i < DTRACE_QUANTIZE_NBUCKETS; i++)
		if (val < DTRACE_QUANTIZE_BUCKETVAL(i))
			return i - 1;
	return DTRACE_QUANTIZE_NBUCKETS - 1;
}

// dtrace_aggregate_lquantize: value and base 32-bit, the level exact.
inline uint32_t lquantize(int64_t base, int64_t step, int64_t levels, int64_t val)
{
	int64_t v = static_cast<int32_t>(val), b = static_cast<int32_t>(base);
	if (v < b)
		return 0;
	int64_t level = (v - b) / step;
	return static_cast<uint32_t>(level < levels ? level + 1 : levels + 1);
}

// dtrace_aggregate_llquantize_bucket, with an exact overflow test.
inline uint32_t llquantize(int64_t factor, int64_t low, int64_t high, int64_t nsteps, int64_t value)
{
	__int128 cur = 1;
	for (int64_t o = 0; o < low; o++)
		cur *= factor;
	__int128 last = cur;
	if (value < last)
		return 0;
	int64_t base = 1;
	cur *= factor;
	for (int64_t order = low; order <= high; order++) {
		__int128 nb = cur > nsteps ? nsteps : cur;
		if (cur * factor > INT64_MAX)
			value = static_cast<int64_t>(cur - 1);
		if (value < cur)
			return static_cast<uint32_t>(base + (value - last) / (cur / nb));
		base += static_cast<int64_t>(nb - nb / factor);
		last = cur;
		cur *= factor;
	}
	return static_cast<uint32_t>(base);
}

// The lowest value of each llquantize bucket, as dt_print_llquantize walks
// them (entry 0: factor^low, what bucket 0 is below).
inline std::vector<int64_t> llquantize_edges(int64_t factor, int64_t low, int64_t high,
					     int64_t nsteps)
{
	__int128 value = 1;
	int64_t order = 0;
	for (; order < low; order++)
		value *= factor;
	std::vector<int64_t> out{static_cast<int64_t>(value)};
	__int128 next = value * factor;
	__int128 step = next > nsteps ? next / nsteps : 1;
	while (order <= high) {
		out.push_back(static_cast<int64_t>(value));
		if ((value += step) != next)
			continue;
		next = value * factor;
		step = next > nsteps ? next / nsteps : 1;
		order++;
	}
	out.push_back(value > INT64_MAX ? INT64_MAX : static_cast<int64_t>(value));
	return out;
}

} // namespace dt::test::agg_ref
