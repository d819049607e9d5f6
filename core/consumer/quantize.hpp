// SPDX-License-Identifier: MIT
//
// consumer/quantize.hpp - the quantize family's tables (quantize.cc), for
// agg_print.cc and printf.cc. Values are the aggregation's words
// (uapi/dtrace/actions.h layouts); normal divides the counts printed;
// zoom is the aggzoom option (the largest bar 95% of the width).
#pragma once

#include <dtrace/program.hpp>

#include <cstdint>
#include <string>

namespace dt::consumer_impl {

// The bucket layouts, from core/dif/dif_agg.h (the arithmetic every engine
// uses): lquantize's levels (0: bad parameters), and llquantize's bucket
// edges into edges[0 .. n) (edges[0]: factor^low, the others each bucket's
// lowest value), returning the index of the overflow bucket.
[[nodiscard]] int lquantize_levels(const aggregation &a);
uint32_t llquantize_edges(const aggregation &a, int64_t *edges, size_t n);

// illumos DTRACE_AGGZOOM_MAX
constexpr long double k_zoom_max = 0.95L;

// (long long)val / normal as illumos computes it (an unsigned division).
long long div_normal(int64_t v, uint64_t normal);
// dt_quantize_total(): add |datum| (with zoom: keep the largest / 0.95).
void add_total(long double &total, int64_t datum, bool zoom);
// dt_print_quantline(): "|@@@@      count\n" and its negative forms.
std::string quantline(int64_t val, uint64_t normal, long double total, bool positives,
		      bool negatives);

std::string print_quantize(const int64_t *data, size_t n, uint64_t normal, bool zoom);
std::string print_lquantize(const aggregation &a, const int64_t *data, size_t n, uint64_t normal,
			    bool zoom);
std::string print_llquantize(const aggregation &a, const int64_t *data, size_t n, uint64_t normal,
			     bool zoom);

// aggpack: the bucket range shared by an aggregation's rows.
struct minmax {
	int minbin = 0, maxbin = 0;
};
// encoding: option encoding (0 unset: UTF-8 unless $TERM is primitive, 1 ascii, 2 utf8).
std::string quantize_packed(const int64_t *data, const minmax &mm, bool zoom, int encoding = 0);
std::string lquantize_packed(const aggregation &a, const int64_t *data, size_t n, bool zoom,
			    int encoding = 0);
// The header above packed rows: agghist (hist) or aggpack.
std::string packed_header(const aggregation &a, int width, bool hist, const minmax &mm);

} // namespace dt::consumer_impl
