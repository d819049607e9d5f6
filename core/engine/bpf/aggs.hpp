// SPDX-License-Identifier: MIT
//
// aggs.hpp - reading aggregations out of their per-CPU hash maps at a
// drain (dt_bpf_abi.h, dt_agg_<id>):
//
//   every key ─► lookup-and-delete (all CPUs' values at once); in a shared
//                map the key's {aggid, 0} prefix says whose it is
//              ─► fold the CPUs: min/max decoded (XOR bias) and min/max-ed,
//                 stddev's 128-bit word pair added with carry, every other
//                 word added (illumos dtrace_aggregate_*'s merge)
//              ─► sink.aggregation({aggid, key[0..key_size), words})
//
// Deleting makes the next drain's values a delta since this one, which is
// what engine_sink wants; an update racing with the delete lands in the
// element being freed and is lost (a window of a few instructions).
#pragma once

#include <dtrace/engine.hpp>
#include <dtrace/program.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace dt::engines::bpf {

// Fold `ncpus` per-CPU values (each `stride` bytes, the map's value size
// rounded up to 8) into the actions.h words of `a`.
[[nodiscard]] std::vector<int64_t> fold_percpu(const aggregation &a, std::span<const uint8_t> vals,
					       uint32_t ncpus, uint32_t stride);

// One aggregation map as the runtime created it (maps.hpp agg_store).
struct agg_map_view {
	int fd = -1;
	uint32_t key_size = 8, value_size = 8;
	// Keys begin with {uint32_t aggid, uint32_t 0} (translate.hpp
	// layout::agg_key_prefixed): the map is shared; else it holds `aggid`.
	bool prefixed = false;
	uint32_t aggid = 0;
};

// Drain one map into sink: aggregations are the program's (by aggid - 1).
// Returns the number of keys delivered; throws engine_error if the map
// cannot be read.
uint32_t drain_aggregation(const agg_map_view &m, const std::vector<aggregation> &aggs,
			   uint32_t ncpus, engine_sink &sink);

} // namespace dt::engines::bpf
