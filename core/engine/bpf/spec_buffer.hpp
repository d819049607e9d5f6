// SPDX-License-Identifier: MIT
//
// spec_buffer.hpp - the consumer's side of speculations (dt_bpf_abi.h
// "speculations"): the dt_spec map, and the speculative firings held per
// speculation until its commit() or discard().
//
//   kernel: speculation() ─► an id (compare-and-swap in dt_spec)
//           firing after speculate(id) ─► ring: SPEC sample (firing + tag)
//           commit(id) / discard(id)   ─► ring: SPEC_END sample
//   here, in ring order (ring.cc hands both kinds over):
//     firing(id, gen)  held under (id, gen): at most specsize bytes per
//                      CPU (illumos: one specsize buffer per CPU), beyond
//                      that a speculative drop
//     end(id, gen)     commit: the held firings are released, in the
//                      order written, where the commit is in the ring;
//                      discard: dropped
//     a firing of a generation that already ended (another CPU wrote it
//     while the id ended) follows the outcome: released at once or dropped
//
// Held data is bounded: per id, at most k_max_gens generations wait for
// their end (more only when SPEC_END samples were lost to a full ring: the
// oldest is then given up).
#pragma once

#include "fd.hpp"

#include <dtrace/program.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace dt::engines::bpf {

// Does the program call speculation() or have speculate(), commit() or
// discard() actions?
[[nodiscard]] bool uses_speculations(const program &p);
// dt_spec for nspec speculations (entry 0: nspec); engine_error if `used`
// and nspec is above DT_BPF_NSPEC_MAX (else at most that many), or if the
// map cannot be made.
[[nodiscard]] unique_fd create_spec_map(uint32_t nspec, bool used);
// Failed speculation() calls so far (dt_spec[0].unavail).
[[nodiscard]] uint64_t spec_unavailable(int spec_fd);

class spec_buffer {
public:
	struct firing_bytes {
		uint32_t cpu = 0;
		std::vector<uint8_t> bytes; // rechdr + records
	};
	explicit spec_buffer(uint64_t specsize = 32 << 10) : specsize_(specsize) {}
	void set_specsize(uint64_t n) { specsize_ = n; }

	// A speculative firing; what is released at once is appended to out.
	void firing(uint32_t id, uint32_t gen, firing_bytes f, std::vector<firing_bytes> &out);
	// commit() (commit) or discard() of (id, gen); released firings to out.
	void end(uint32_t id, uint32_t gen, bool commit, std::vector<firing_bytes> &out);
	// Speculative drops since the last call, by CPU.
	[[nodiscard]] std::map<uint32_t, uint64_t> take_drops();

	static constexpr size_t k_max_gens = 8;

private:
	struct holding {
		uint64_t seq = 0; // creation order
		std::vector<firing_bytes> firings;
		std::map<uint32_t, uint64_t> used; // bytes by CPU
	};
	static uint64_t key(uint32_t id, uint32_t gen) { return (uint64_t{id} << 32) | gen; }

	uint64_t specsize_;
	uint64_t seq_ = 0;
	std::map<uint64_t, holding> held_;				  // by key(id, gen)
	std::map<uint32_t, std::deque<std::pair<uint32_t, bool>>> ended_; // id -> (gen, commit)
	std::map<uint32_t, uint64_t> drops_;
};

} // namespace dt::engines::bpf
