// SPDX-License-Identifier: MIT
//
// dtrace/ustack_capture.hpp - the layout of a ustack() record or key that
// holds a capture for DWARF unwinding instead of pcs.
#pragma once

#include <dtrace/options.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

namespace dt {

// A ustack() captured for DWARF unwinding (-x ustackbytes=N, bpf engine;
// docs/ustack.md). Same kind (value_type::kind::ustack), another layout,
// told apart by word 1, which a user pc (below 2^47) never is:
//
//   word 0   pid
//   word 1   k_ustack_capture_magic | bytes of stack copied
//   word 2   ip      word 3   sp      word 4   bp     (user registers)
//   word 5.. the user stack from sp, bytes long, then zeros
//
// The consumer unwinds it and rewrites it in place to the ordinary layout
// (pid, pcs, zeros), so that equal stacks are equal aggregation keys.
constexpr uint64_t k_ustack_capture_magic = 0xd7ace00000000000ull;
constexpr uint64_t k_ustack_capture_mask = 0xfffff00000000000ull;
constexpr uint32_t k_ustack_capture_header = 40;
// The most stack an aggregation key copies (the bpf engine's keys are at
// most 2 KiB, other keys included).
constexpr uint32_t k_ustack_key_bytes = 1536;
constexpr uint32_t ustack_capture_size(uint32_t bytes)
{
	return k_ustack_capture_header + ((bytes + 7) & ~7u);
}

// -x ustackbytes (0: not set, frame pointers in the probe), at most its
// table limit.
inline uint32_t ustack_bytes(const std::map<std::string, std::string> &opts)
{
	auto it = opts.find("ustackbytes");
	if (it == opts.end() || option_unsets(it->first, it->second))
		return 0;
	return static_cast<uint32_t>(
		std::min<uint64_t>(parse_size_option(it->first, it->second), 16384));
}

} // namespace dt
