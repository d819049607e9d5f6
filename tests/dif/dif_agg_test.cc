// SPDX-License-Identifier: MIT
//
// dif_agg_test.cc - core/dif/dif_agg.h, the aggregation arithmetic every
// engine and the consumer share: bucket edges of quantize, lquantize and
// llquantize (zero, negatives, the extremes, 64-bit overflow) against the
// values illumos gives and against dif_agg_reference.hpp; value sizes and
// the parameters refused; folding and merging each function's words.
#include "dif_agg_reference.hpp"

extern "C" {
#include "dif_agg.h"
}

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace {

namespace ref = dt::test::agg_ref;

constexpr int64_t k_max = std::numeric_limits<int64_t>::max();
constexpr int64_t k_min = std::numeric_limits<int64_t>::min();

// Every power of two, its neighbours and their negatives, and the extremes.
std::vector<int64_t> probe_values()
{
	std::vector<int64_t> v = {0, 1, -1, k_max, k_min, k_min + 1, k_max - 1};
	for (int s = 0; s < 63; s++) {
		int64_t p = int64_t{1} << s;
		for (int64_t x : {p - 1, p, p + 1}) {
			v.push_back(x);
			v.push_back(-x);
		}
	}
	for (int64_t x = -1100; x <= 1100; x++)
		v.push_back(x);
	for (int64_t p = 10; p < k_max / 10; p *= 10)
		for (int64_t x : {p - 1, p, p + 1, 3 * p, 3 * p - 1})
			v.push_back(x);
	v.push_back(int64_t{1} << 32 | 5); // lquantize sees 5
	v.push_back(INT32_MAX);
	v.push_back(INT32_MIN);
	return v;
}

TEST(dif_agg_quantize, PowerOfTwoBucketsAroundZero)
{
	EXPECT_EQ(dif_agg_quantize_bucket(0), 63u);
	EXPECT_EQ(dif_agg_quantize_bucket(1), 64u);
	EXPECT_EQ(dif_agg_quantize_bucket(2), 65u);
	EXPECT_EQ(dif_agg_quantize_bucket(3), 65u);
	EXPECT_EQ(dif_agg_quantize_bucket(4), 66u);
	EXPECT_EQ(dif_agg_quantize_bucket(1023), 73u);
	EXPECT_EQ(dif_agg_quantize_bucket(1024), 74u);
	EXPECT_EQ(dif_agg_quantize_bucket(-1), 62u);
	EXPECT_EQ(dif_agg_quantize_bucket(-2), 61u);
	EXPECT_EQ(dif_agg_quantize_bucket(-3), 61u); // row "-2" holds -3 and -2
	EXPECT_EQ(dif_agg_quantize_bucket(-4), 60u);
	EXPECT_EQ(dif_agg_quantize_bucket(int64_t{1} << 62), 126u);
	EXPECT_EQ(dif_agg_quantize_bucket(k_max), 126u);
	EXPECT_EQ(dif_agg_quantize_bucket(-(int64_t{1} << 62)), 0u);
	EXPECT_EQ(dif_agg_quantize_bucket(-(int64_t{1} << 62) + 1), 1u);
	EXPECT_EQ(dif_agg_quantize_bucket(k_min), 0u);
}

TEST(dif_agg_quantize, EveryEdgeAsIllumosWalksTheBuckets)
{
	for (int64_t v : probe_values())
		EXPECT_EQ(dif_agg_quantize_bucket(v), ref::quantize(v)) << v;
	// Each bucket's value lands in that bucket, the value below it (for
	// the positive ones) in the one before.
	for (uint32_t i = 0; i < DTRACE_QUANTIZE_NBUCKETS; i++) {
		int64_t b = DTRACE_QUANTIZE_BUCKETVAL(i);
		EXPECT_EQ(dif_agg_quantize_bucket(b), i) << b;
		if (i > DTRACE_QUANTIZE_ZEROBUCKET) {
			EXPECT_EQ(dif_agg_quantize_bucket(b - 1), i - 1) << b;
		}
	}
}

TEST(dif_agg_lquantize, LinearStepsWithUnderAndOverflow)
{
	EXPECT_EQ(dif_agg_lquantize_levels(0, 100, 10), 10u);
	EXPECT_EQ(dif_agg_lquantize_bucket(0, 10, 10, -1), 0u);
	EXPECT_EQ(dif_agg_lquantize_bucket(0, 10, 10, 0), 1u);
	EXPECT_EQ(dif_agg_lquantize_bucket(0, 10, 10, 9), 1u);
	EXPECT_EQ(dif_agg_lquantize_bucket(0, 10, 10, 10), 2u);
	EXPECT_EQ(dif_agg_lquantize_bucket(0, 10, 10, 99), 10u);
	EXPECT_EQ(dif_agg_lquantize_bucket(0, 10, 10, 100), 11u);
	EXPECT_EQ(dif_agg_lquantize_bucket(-5, 1, 10, -5), 1u);
	EXPECT_EQ(dif_agg_lquantize_bucket(-5, 1, 10, -6), 0u);
	// Values are 32-bit, as in illumos: 2^32 + 5 is 5, 2^31 is INT32_MIN.
	EXPECT_EQ(dif_agg_lquantize_bucket(0, 1, 10, (int64_t{1} << 32) + 5), 6u);
	EXPECT_EQ(dif_agg_lquantize_bucket(0, 1, 10, int64_t{1} << 31), 0u);
	// INT32_MAX - INT32_MIN overflows 32 bits (illumos: undefined, a
	// negative level); here the overflow bucket.
	EXPECT_EQ(dif_agg_lquantize_bucket(INT32_MIN, 1, 100, INT32_MAX), 101u);
}

TEST(dif_agg_lquantize, AgreesWithTheReference)
{
	struct {
		int64_t base, limit, step;
	} cases[] = {{0, 100, 10}, {-50, 90, 7}, {-1000, 1000, 1}, {INT32_MIN, INT32_MAX, 1 << 20},
		     {1, 2, 1},	   {-10, -5, 2}};
	for (auto c : cases) {
		uint32_t levels = dif_agg_lquantize_levels(c.base, c.limit, c.step);
		ASSERT_EQ(levels, static_cast<uint32_t>((c.limit - c.base) / c.step)) << c.base;
		const int64_t p[] = {c.base, c.limit, c.step};
		EXPECT_EQ(dif_agg_nwords(DTRACEAGG_LQUANTIZE, p, 3), levels + 2);
		for (int64_t v : probe_values())
			EXPECT_EQ(dif_agg_lquantize_bucket(c.base, c.step, levels, v),
				  ref::lquantize(c.base, c.step, levels, v))
				<< c.base << " " << c.step << " " << v;
	}
}

TEST(dif_agg_lquantize, RefusesWhatIllumosRefuses)
{
	EXPECT_EQ(dif_agg_lquantize_levels(0, 0, 1), 0u);		       // base == limit
	EXPECT_EQ(dif_agg_lquantize_levels(10, 0, 1), 0u);		       // base > limit
	EXPECT_EQ(dif_agg_lquantize_levels(0, 100, 0), 0u);		       // step 0
	EXPECT_EQ(dif_agg_lquantize_levels(0, 100, -1), 0u);		       // step < 0
	EXPECT_EQ(dif_agg_lquantize_levels(0, 5, 10), 0u);		       // no level
	EXPECT_EQ(dif_agg_lquantize_levels(int64_t{INT32_MIN} - 1, 0, 1), 0u); // 33-bit base
	EXPECT_EQ(dif_agg_lquantize_levels(0, int64_t{INT32_MAX} + 1, 1 << 20), 0u);
	EXPECT_EQ(dif_agg_lquantize_levels(0, 65536, 1), 0u); // levels are 16-bit
	EXPECT_EQ(dif_agg_lquantize_levels(0, 65535, 1), 65535u);
	const int64_t two[] = {0, 10};
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_LQUANTIZE, two, 2), 0u);
}

TEST(dif_agg_llquantize, LogLinearBuckets)
{
	// llquantize(x, 10, 0, 2, 10): <1, 1..9, 10..90 by 10, 100..900 by
	// 100, >= 1000.
	const int64_t p[] = {10, 0, 2, 10};
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_LLQUANTIZE, p, 4), 29u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 0), 0u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, -7), 0u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, k_min), 0u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 1), 1u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 9), 9u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 10), 10u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 19), 10u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 99), 18u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 100), 19u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 999), 27u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 1000), 28u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, 1 << 30), 28u);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 2, 10, k_max), 28u);
}

TEST(dif_agg_llquantize, FewerStepsThanTheFactorPower)
{
	// llquantize(x, 2, 0, 3, 4): 1, 2, 3, 4..5, 6..7, 8..11, 12..15, >= 16.
	const int64_t p[] = {2, 0, 3, 4};
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_LLQUANTIZE, p, 4), 9u);
	const std::pair<int64_t, uint32_t> want[] = {{0, 0},  {1, 1},  {2, 2},	{3, 3},
						     {4, 4},  {5, 4},  {7, 5},	{8, 6},
						     {11, 6}, {12, 7}, {15, 7}, {16, 8}};
	for (auto [v, b] : want)
		EXPECT_EQ(dif_agg_llquantize_bucket(2, 0, 3, 4, v), b) << v;
}

struct llq {
	int64_t factor, low, high, nsteps;
};
const llq k_llq[] = {{10, 0, 2, 10},	   {2, 0, 3, 4},   {10, 0, 6, 20},  {2, 2, 20, 4},
		     {10, 3, 9, 100},	   {3, 3, 5, 27},  {10, 0, 17, 10}, {10, 0, 18, 10},
		     {2, 0, 61, 2},	   {2, 0, 62, 2},  {2, 10, 62, 64}, {16, 1, 14, 256},
		     {65535, 0, 2, 65535}, {7, 1, 21, 49}, {4, 0, 30, 16}};

TEST(dif_agg_llquantize, AgreesWithTheReferenceIncludingOverflow)
{
	for (auto c : k_llq) {
		const int64_t p[] = {c.factor, c.low, c.high, c.nsteps};
		uint32_t n = dif_agg_nwords(DTRACEAGG_LLQUANTIZE, p, 4);
		ASSERT_EQ(n, ref::llquantize(c.factor, c.low, c.high, c.nsteps, k_max) + 1)
			<< c.factor << " " << c.high;
		for (int64_t v : probe_values()) {
			uint32_t b =
				dif_agg_llquantize_bucket(c.factor, c.low, c.high, c.nsteps, v);
			EXPECT_EQ(b, ref::llquantize(c.factor, c.low, c.high, c.nsteps, v))
				<< c.factor << "," << c.low << "," << c.high << "," << c.nsteps
				<< " value " << v;
			EXPECT_LT(b, n) << v;
		}
	}
	// 10^19 does not fit in 63 bits: as illumos, the order whose next
	// power would overflow (10^17 .. 10^18 - 1, where cur * factor is
	// tested) clamps every value that reaches it, its own included, into
	// its last step; that bucket is the last one.
	const int64_t p[] = {10, 0, 18, 10};
	uint32_t n = dif_agg_nwords(DTRACEAGG_LLQUANTIZE, p, 4);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 18, 10, k_max), n - 1);
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 18, 10, 100'000'000'000'000'000), n - 1);
	// The order below ends nine buckets earlier (order 17's steps 10^17
	// .. 8 * 10^17 are never reached).
	EXPECT_EQ(dif_agg_llquantize_bucket(10, 0, 18, 10, 99'999'999'999'999'999), n - 10);
}

TEST(dif_agg_llquantize, EdgesAreEachBucketsLowestValue)
{
	for (auto c : k_llq) {
		const int64_t p[] = {c.factor, c.low, c.high, c.nsteps};
		uint32_t n = dif_agg_nwords(DTRACEAGG_LLQUANTIZE, p, 4);
		std::vector<int64_t> e(n);
		uint32_t top =
			dif_agg_llquantize_edges(c.factor, c.low, c.high, c.nsteps, e.data(), n);
		std::vector<int64_t> want =
			ref::llquantize_edges(c.factor, c.low, c.high, c.nsteps);
		bool clamped = want.size() != n; // an order did not fit in 63 bits
		if (!clamped) {
			EXPECT_EQ(top, n - 1) << c.factor << " " << c.high;
			EXPECT_EQ(e, want) << c.factor << " " << c.high;
		}
		EXPECT_EQ(dif_agg_llquantize_bucket(c.factor, c.low, c.high, c.nsteps, e[0] - 1),
			  0u);
		// (Edges of an order that clamps, above, are not its buckets'.)
		for (uint32_t i = 1; i < n && i <= top && e[i] <= k_max / c.factor / c.factor;
		     i++) {
			EXPECT_EQ(
				dif_agg_llquantize_bucket(c.factor, c.low, c.high, c.nsteps, e[i]),
				i)
				<< c.factor << " " << c.high << " edge " << i << " = " << e[i];
			EXPECT_EQ(dif_agg_llquantize_bucket(c.factor, c.low, c.high, c.nsteps,
							    e[i] - 1),
				  i - 1)
				<< c.factor << " " << c.high << " edge " << i << " = " << e[i];
		}
	}
}

TEST(dif_agg_llquantize, RefusesParametersThatWouldNotStayBounded)
{
	auto nw = [](int64_t f, int64_t lo, int64_t hi, int64_t ns) {
		const int64_t p[] = {f, lo, hi, ns};
		return dif_agg_nwords(DTRACEAGG_LLQUANTIZE, p, 4);
	};
	EXPECT_EQ(nw(1, 0, 2, 10), 0u);	       // factor < 2
	EXPECT_EQ(nw(65536, 0, 2, 65536), 0u); // 16-bit
	EXPECT_EQ(nw(10, 3, 2, 10), 0u);       // high < low
	EXPECT_EQ(nw(2, 0, 64, 2), 0u);	       // high > 63
	EXPECT_EQ(nw(10, 0, 2, 0), 0u);	       // no steps
	EXPECT_EQ(nw(10, -1, 2, 10), 0u);      // low < 0
	EXPECT_EQ(nw(65535, 3, 5, 65535), 0u); // factor^(low+1) overflows
	EXPECT_NE(nw(65535, 2, 3, 65535), 0u);
	const int64_t three[] = {10, 0, 2};
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_LLQUANTIZE, three, 3), 0u);
	EXPECT_EQ(dif_agg_llquantize_bucket(1, 0, 2, 10, 5), 0u); // no loop on factor 1
}

TEST(dif_agg_values, SizesByFunction)
{
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_COUNT, nullptr, 0), 1u);
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_SUM, nullptr, 0), 1u);
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_MIN, nullptr, 0), 1u);
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_MAX, nullptr, 0), 1u);
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_AVG, nullptr, 0), 2u);
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_STDDEV, nullptr, 0), 4u);
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_QUANTIZE, nullptr, 0), 127u);
	EXPECT_EQ(dif_agg_nwords(0, nullptr, 0), 0u);
	EXPECT_EQ(dif_agg_nwords(DTRACEAGG_LLQUANTIZE + 1, nullptr, 0), 0u);
}

TEST(dif_agg_values, StddevKeepsA128BitSumOfSquares)
{
	int64_t v[4];
	dif_agg_init(DTRACEAGG_STDDEV, v, 4);
	dif_agg_apply(DTRACEAGG_STDDEV, nullptr, 0, v, 4, -3, 1);
	dif_agg_apply(DTRACEAGG_STDDEV, nullptr, 0, v, 4, int64_t{1} << 40, 1);
	EXPECT_EQ(v[0], 2);
	EXPECT_EQ(v[1], (int64_t{1} << 40) - 3);
	// 9 + 2^80: low word 9, high word 2^16.
	EXPECT_EQ(static_cast<uint64_t>(v[2]), 9u);
	EXPECT_EQ(v[3], int64_t{1} << 16);
	// INT64_MIN squared is 2^126; (2^64 - 1)^2 carries across the words.
	dif_agg_init(DTRACEAGG_STDDEV, v, 4);
	dif_agg_apply(DTRACEAGG_STDDEV, nullptr, 0, v, 4, k_min, 1);
	EXPECT_EQ(v[2], 0);
	EXPECT_EQ(static_cast<uint64_t>(v[3]), uint64_t{1} << 62);
	for (int64_t x : {k_max, k_min + 1, int64_t{0x123456789abcdef}, int64_t{-77}}) {
		dif_agg_init(DTRACEAGG_STDDEV, v, 4);
		dif_agg_apply(DTRACEAGG_STDDEV, nullptr, 0, v, 4, x, 1);
		unsigned __int128 m = x < 0 ? -static_cast<unsigned __int128>(x) : x;
		unsigned __int128 sq = m * m;
		EXPECT_EQ(static_cast<uint64_t>(v[2]), static_cast<uint64_t>(sq)) << x;
		EXPECT_EQ(static_cast<uint64_t>(v[3]), static_cast<uint64_t>(sq >> 64)) << x;
	}
}

TEST(dif_agg_values, MergeAddsTheSquaresWithCarry)
{
	int64_t a[4] = {1, 5, -1, 0}, b[4] = {2, -7, 3, 1}; // 2^64 - 1 and 2^64 + 3
	dif_agg_merge(DTRACEAGG_STDDEV, a, b, 4);
	EXPECT_EQ(a[0], 3);
	EXPECT_EQ(a[1], -2);
	EXPECT_EQ(a[2], 2);
	EXPECT_EQ(a[3], 2);
}

TEST(dif_agg_values, MinAndMaxStartAtTheirIdentitiesAndMergeAsSuch)
{
	int64_t mn, mx;
	dif_agg_init(DTRACEAGG_MIN, &mn, 1);
	dif_agg_init(DTRACEAGG_MAX, &mx, 1);
	EXPECT_EQ(mn, k_max);
	EXPECT_EQ(mx, k_min);
	EXPECT_EQ(dif_agg_identity(DTRACEAGG_SUM), 0);
	dif_agg_apply(DTRACEAGG_MIN, nullptr, 0, &mn, 1, 5, 1);
	dif_agg_apply(DTRACEAGG_MAX, nullptr, 0, &mx, 1, 5, 1);
	EXPECT_EQ(mn, 5);
	EXPECT_EQ(mx, 5);
	const int64_t d1 = 3, d2 = 9, d3 = 7;
	dif_agg_merge(DTRACEAGG_MIN, &mn, &d1, 1);
	dif_agg_merge(DTRACEAGG_MAX, &mx, &d2, 1);
	dif_agg_merge(DTRACEAGG_MIN, &mn, &d3, 1);
	dif_agg_merge(DTRACEAGG_MAX, &mx, &d3, 1);
	EXPECT_EQ(mn, 3);
	EXPECT_EQ(mx, 9);
}

TEST(dif_agg_values, CountSumAvgWrapAndMergeWordByWord)
{
	int64_t c = 0, s = 0, avg[2] = {0, 0};
	dif_agg_apply(DTRACEAGG_COUNT, nullptr, 0, &c, 1, 123, 1);
	dif_agg_apply(DTRACEAGG_SUM, nullptr, 0, &s, 1, k_max, 1);
	dif_agg_apply(DTRACEAGG_SUM, nullptr, 0, &s, 1, 2, 1); // wraps, as illumos' uint64_t
	dif_agg_apply(DTRACEAGG_AVG, nullptr, 0, avg, 2, 10, 1);
	dif_agg_apply(DTRACEAGG_AVG, nullptr, 0, avg, 2, -4, 1);
	EXPECT_EQ(c, 1);
	EXPECT_EQ(s, k_min + 1);
	EXPECT_EQ(avg[0], 2);
	EXPECT_EQ(avg[1], 6);
	const int64_t more[2] = {3, 30};
	dif_agg_merge(DTRACEAGG_AVG, avg, more, 2);
	EXPECT_EQ(avg[0], 5);
	EXPECT_EQ(avg[1], 36);
}

TEST(dif_agg_values, QuantizationsCountTheirIncrementInTheirBucket)
{
	std::vector<int64_t> q(127, 0);
	dif_agg_apply(DTRACEAGG_QUANTIZE, nullptr, 0, q.data(), 127, 5, 3);
	dif_agg_apply(DTRACEAGG_QUANTIZE, nullptr, 0, q.data(), 127, -5, 1);
	EXPECT_EQ(q[66], 3);
	EXPECT_EQ(q[60], 1);
	const int64_t lp[] = {0, 100, 10};
	std::vector<int64_t> l(12, 0);
	dif_agg_apply(DTRACEAGG_LQUANTIZE, lp, 3, l.data(), 12, 55, 2);
	dif_agg_apply(DTRACEAGG_LQUANTIZE, lp, 3, l.data(), 12, 1000, 1);
	EXPECT_EQ(l[6], 2);
	EXPECT_EQ(l[11], 1);
	const int64_t llp[] = {10, 0, 2, 10};
	std::vector<int64_t> ll(29, 0), other(29, 0);
	dif_agg_apply(DTRACEAGG_LLQUANTIZE, llp, 4, ll.data(), 29, 150, 1);
	dif_agg_apply(DTRACEAGG_LLQUANTIZE, llp, 4, other.data(), 29, 150, 4);
	dif_agg_merge(DTRACEAGG_LLQUANTIZE, ll.data(), other.data(), 29);
	EXPECT_EQ(ll[19], 5);
	// A bucket past the value's words (parameters that disagree with the
	// size) is not counted, and nothing is written past nwords.
	std::vector<int64_t> small(3, 0);
	dif_agg_apply(DTRACEAGG_LLQUANTIZE, llp, 4, small.data(), 2, 150, 1);
	EXPECT_EQ(small, std::vector<int64_t>(3, 0));
}

} // namespace
