// SPDX-License-Identifier: MIT
// The aggregating functions' bucket math against illumos
// dtrace_aggregate_*(): where each value lands and what each function keeps.
#include "aggregate.hpp"

#include <gtest/gtest.h>

#include <limits>

using namespace dt::engines::user;

TEST(quantize, PowerOfTwoBucketsAroundZero)
{
	EXPECT_EQ(quantize_bucket(0), 63u);
	EXPECT_EQ(quantize_bucket(1), 64u);
	EXPECT_EQ(quantize_bucket(2), 65u);
	EXPECT_EQ(quantize_bucket(3), 65u);
	EXPECT_EQ(quantize_bucket(4), 66u);
	EXPECT_EQ(quantize_bucket(1023), 73u);
	EXPECT_EQ(quantize_bucket(1024), 74u);
	EXPECT_EQ(quantize_bucket(-1), 62u);
	EXPECT_EQ(quantize_bucket(-2), 61u);
	EXPECT_EQ(quantize_bucket(-3), 61u); // row "-2" holds -3 and -2
	EXPECT_EQ(quantize_bucket(-4), 60u);
	EXPECT_EQ(quantize_bucket(std::numeric_limits<int64_t>::max()), 126u);
	EXPECT_EQ(quantize_bucket(std::numeric_limits<int64_t>::min()), 0u);
}

TEST(lquantize, UnderflowLevelsAndOverflow)
{
	// lquantize(x, 0, 100, 10): 10 levels, buckets 0 (<0) .. 11 (>=100).
	EXPECT_EQ(lquantize_bucket(0, 10, 10, -1), 0u);
	EXPECT_EQ(lquantize_bucket(0, 10, 10, 0), 1u);
	EXPECT_EQ(lquantize_bucket(0, 10, 10, 9), 1u);
	EXPECT_EQ(lquantize_bucket(0, 10, 10, 10), 2u);
	EXPECT_EQ(lquantize_bucket(0, 10, 10, 99), 10u);
	EXPECT_EQ(lquantize_bucket(0, 10, 10, 100), 11u);
	EXPECT_EQ(lquantize_bucket(-5, 1, 10, -5), 1u);
}

TEST(llquantize, LogLinearBucketsOfFactorTen)
{
	// llquantize(x, 10, 0, 2, 10): <1 | 1..9 | 10..90 | 100..900 | >=1000.
	EXPECT_EQ(llquantize_nbuckets(10, 0, 2, 10), 29u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 0), 0u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, -7), 0u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 1), 1u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 9), 9u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 10), 10u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 19), 10u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 99), 18u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 100), 19u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 999), 27u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 1000), 28u);
	EXPECT_EQ(llquantize_bucket(10, 0, 2, 10, 1 << 30), 28u);
}

TEST(llquantize, StepsOverlapTheLowerOrderOfMagnitude)
{
	// llquantize(x, 2, 0, 3, 4): steps of this/nsteps across [0, this),
	// those below the previous order dropped: <1 | 1 | 2 3 | 4 6 | 8 12 | >=16
	EXPECT_EQ(llquantize_nbuckets(2, 0, 3, 4), 9u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 1), 1u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 2), 2u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 3), 3u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 4), 4u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 5), 4u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 7), 5u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 8), 6u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 11), 6u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 12), 7u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 15), 7u);
	EXPECT_EQ(llquantize_bucket(2, 0, 3, 4, 16), 8u);
}

TEST(aggregate, StddevKeepsA128BitSumOfSquares)
{
	dt::aggregation a;
	a.func = DTRACEAGG_STDDEV;
	a.nwords = 4;
	auto v = agg_init(a);
	agg_apply(a, v, -3, 1);
	agg_apply(a, v, int64_t{1} << 40, 1);
	EXPECT_EQ(v[0], 2);
	EXPECT_EQ(v[1], (int64_t{1} << 40) - 3);
	// 9 + 2^80: low word 9, high word 2^16.
	EXPECT_EQ(static_cast<uint64_t>(v[2]), 9u);
	EXPECT_EQ(v[3], int64_t{1} << 16);
}

TEST(aggregate, MinAndMaxStartAtTheirIdentitiesAndMergeAsSuch)
{
	dt::aggregation mn, mx;
	mn.func = DTRACEAGG_MIN;
	mx.func = DTRACEAGG_MAX;
	auto a = agg_init(mn), b = agg_init(mx);
	EXPECT_EQ(a[0], std::numeric_limits<int64_t>::max());
	EXPECT_EQ(b[0], std::numeric_limits<int64_t>::min());
	agg_apply(mn, a, 5, 1);
	agg_apply(mx, b, 5, 1);
	std::vector<int64_t> d1{3}, d2{9};
	agg_merge(mn, a, d1);
	agg_merge(mx, b, d2);
	EXPECT_EQ(a[0], 3);
	EXPECT_EQ(b[0], 9);
}
