// SPDX-License-Identifier: MIT
//
// aggs.hpp - exact aggregation snapshots out of per-CPU hash maps
// (dt_bpf_abi.h, dt_agg_<id> and dt_aggen), as illumos switches a CPU's
// aggregation buffer with its spare (dtrace_aggregate_snap()):
//
//   programs: key {aggid, g = dt_aggen, keys...} ─► update in place
//
//   snapshot:  dt_aggen = g + 1                      (set_generation)
//              ─► the kernel's grace period: every program that may
//                 still have read g has returned     (program_barrier)
//              ─► every key whose generation is not g + 1 is now the
//                 reader's alone: lookup-and-delete (all CPUs' values at
//                 once); its aggid from the key prefix
//              ─► fold the CPUs: min/max decoded (XOR bias) and
//                 min/max-ed, stddev's 128-bit word pair added with
//                 carry, every other word added (illumos
//                 dtrace_aggregate_*'s merge)
//              ─► sink.aggregation({aggid, key[8..8+key_size), words})
//
// Deleting only what no program can reach makes each snapshot's values
// exactly the updates since the previous one (what engine_sink wants): an
// update in flight during the switch lands in the old generation, which is
// read only once it has returned. Keys of the new generation wait for the
// next snapshot. While a snapshot waits, a key may exist in both
// generations, so a map sized for N keys per interval holds N plus what
// is created during the wait (about a grace period: ~10-30 ms).
//
// The grace period: updating an array of maps returns only once every
// non-sleepable BPF program that could be running has finished (the
// kernel's maybe_wait_bpf_programs(), "so that userspace, when we return
// to it, knows that all non-sleepable programs that could be running use
// the new map value"; since Linux 5.0, and the kernel's own selftests use
// it the same way). Our programs are non-sleepable and run under RCU.
#pragma once

#include "fd.hpp"

#include <dtrace/engine.hpp>
#include <dtrace/program.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dt::engines::bpf {

// Fold `ncpus` per-CPU values (each `stride` bytes, the map's value size
// rounded up to 8) into the actions.h words of `a`.
[[nodiscard]] std::vector<int64_t> fold_percpu(const aggregation &a, std::span<const uint8_t> vals,
					       uint32_t ncpus, uint32_t stride);

// One aggregation map as the runtime created it (maps.hpp agg_store):
// keys begin with {uint32_t aggid, uint32_t generation}.
struct agg_map_view {
	int fd = -1;
	uint32_t key_size = 8, value_size = 8;
};

// Drain one map into sink: aggregations are the program's (by aggid - 1).
// Keys of generation `keep` (programs may still update them) stay; every
// other key is delivered and deleted (nullopt: every key). Returns the
// number of keys delivered; throws engine_error if the map cannot be read.
uint32_t drain_aggregation(const agg_map_view &m, const std::vector<aggregation> &aggs,
			   uint32_t ncpus, engine_sink &sink, std::optional<uint32_t> keep);

// Does the map hold a key? (Throws engine_error if it cannot be read.)
[[nodiscard]] bool has_keys(int fd, uint32_t key_size);

// dt_aggen = gen (the map's fd). Throws engine_error.
void set_generation(int aggen_fd, uint32_t gen);

// Waits for the kernel's grace period (see above). Its maps (an array of
// one map, and that map) are made at the first wait.
class program_barrier {
public:
	// Throws engine_error.
	void wait();

private:
	unique_fd outer_, inner_;
};

} // namespace dt::engines::bpf
