// SPDX-License-Identifier: MIT
//
// buffers.hpp - the user engine's principal and speculative buffers
// (illumos dtrace_buffer_t, one for all CPUs: the engine runs on the
// consumer's thread, so firings are already in time order).
//
//   principal_buffer      policy switch: emptied by every drain
//                         policy fill:   kept until stop; full -> filled()
//                                        (END's firings have room reserved)
//                         policy ring:   kept until stop; full -> the
//                                        oldest firings are overwritten
//   spec_buffer           one per speculation id (nspec of them, specsize
//                         bytes each); commit() moves its firings across
//
// A buffer holds an ordered list of events: firings (bytes + the CPU they
// ran on) and faults, so that drain() reports a fault between the
// firings it happened between. A firing that does not fit is dropped
// whole and counted against its CPU.
#pragma once

#include <dtrace/engine.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace dt::engines::user {

enum class buf_policy { switch_, fill, ring };

struct buf_event {
	uint32_t cpu = 0;
	std::vector<uint8_t> bytes; // empty: a fault
	fault_report fault;
};

class principal_buffer {
public:
	principal_buffer(buf_policy p, uint64_t size, uint64_t reserve)
		: policy_(p), size_(size), reserve_(reserve)
	{
	}
	// Is there room for a firing of `size` bytes? If not, a drop is
	// counted (illumos dtrace_buffer_reserve(), which runs before the
	// predicate: a firing that cannot fit is dropped unevaluated).
	// `is_end`: END may use the space fill reserves for it.
	bool reserve(uint64_t size, uint32_t cpu, bool is_end = false);
	// Append a firing; false (and a drop counted) if it does not fit.
	bool put(std::vector<uint8_t> bytes, uint32_t cpu, bool is_end = false);
	void put_fault(const fault_report &f, uint32_t cpu);
	void count_drop(uint32_t cpu, uint64_t n = 1) { drops_[cpu] += n; }
	// Deliver to the sink, then this buffer's drops; fill and ring
	// deliver their firings only once `stopped`.
	void drain(engine_sink &sink, bool stopped);
	[[nodiscard]] bool filled() const { return filled_; }

private:
	buf_policy policy_;
	uint64_t size_;
	uint64_t reserve_;
	uint64_t used_ = 0;
	bool filled_ = false;
	std::deque<buf_event> events_;
	std::map<uint32_t, uint64_t> drops_;
};

// One speculation (illumos dtrace_speculation_t, with one buffer).
struct spec_buffer {
	enum class state { inactive, active } st = state::inactive;
	uint64_t used = 0;
	std::vector<buf_event> firings;
};

} // namespace dt::engines::user
