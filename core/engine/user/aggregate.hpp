// SPDX-License-Identifier: MIT
//
// aggregate.hpp - the aggregating functions' arithmetic, as illumos
// dtrace.c implements them (dtrace_aggregate_count ... _llquantize), on
// the value layouts of uapi/dtrace/actions.h (no encoded-parameter word:
// the parameters live in dt::aggregation::params).
//
//   agg_init(a)                 the identity value (min: INT64_MAX, ...)
//   agg_apply(a, v, val, incr)  fold one value in
//   agg_merge(a, into, from)    fold a delta (what a consumer does)
//
// Pure functions; nothing here allocates except agg_init's vector.
#pragma once

#include <dtrace/program.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace dt::engines::user {

// Words of value for `a` (lquantize: levels + 2, llquantize: its buckets).
[[nodiscard]] uint32_t agg_nwords(const aggregation &a);

[[nodiscard]] std::vector<int64_t> agg_init(const aggregation &a);

// Fold `val` (weighted by `incr` for the quantizations) into `v`.
void agg_apply(const aggregation &a, std::span<int64_t> v, int64_t val, int64_t incr);

// Fold the delta `from` into `into` (same function, same layout).
void agg_merge(const aggregation &a, std::span<int64_t> into, std::span<const int64_t> from);

// The bucket index of `val` (illumos dtrace_aggregate_*quantize).
[[nodiscard]] uint32_t quantize_bucket(int64_t val);
[[nodiscard]] uint32_t lquantize_bucket(int64_t base, int64_t step, int64_t levels, int64_t val);
[[nodiscard]] uint32_t llquantize_bucket(int64_t factor, int64_t low, int64_t high, int64_t nsteps,
					 int64_t val);
[[nodiscard]] uint32_t llquantize_nbuckets(int64_t factor, int64_t low, int64_t high,
					   int64_t nsteps);

} // namespace dt::engines::user
