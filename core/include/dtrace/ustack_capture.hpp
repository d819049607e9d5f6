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
// The most stack an aggregation key copies: the default copy whole, more
// with -x ustackbytes up to 8 KiB (the bpf engine's keys are at most
// 16 KiB, other keys included; a key is staged in its 16 KiB firing buffer).
constexpr uint32_t k_ustack_key_bytes = 8192;
constexpr uint32_t ustack_capture_size(uint32_t bytes)
{
	return k_ustack_capture_header + ((bytes + 7) & ~7u);
}
// The stack a ustack() copies when -x ustackbytes is not given: whole
// stacks by default (perf --call-graph dwarf copies 8 KiB; half of that
// halves the probe's cost and reaches main in programs of ordinary depth:
// docs/ustack.md). Aggregation keys copy it whole too.
constexpr uint32_t k_ustack_default_bytes = 4096;
// Without -x ustackbytes, a clause's ustack() records copy at most this in
// all (a later one walks frame pointers: the bpf engine's firing is at most
// 16 KiB), and an aggregation's keys with default captures at most this
// (else its ustack() keys walk frame pointers: the bpf engine's keys are at
// most 16 KiB, the 8-byte {aggid, generation} prefix included).
constexpr uint32_t k_ustack_default_clause_bytes = 3 * ustack_capture_size(k_ustack_default_bytes);
constexpr uint32_t k_ustack_default_keys_bytes = 16384 - 8;

// -x ustackbytes, k_ustack_default_bytes when not given, at most its table
// limit; 0 (-x ustackbytes=0): frame pointers walked in the probe. The
// session gives 0 to the kmod and user engines, which walk frame pointers.
inline uint32_t ustack_bytes(const std::map<std::string, std::string> &opts)
{
	auto it = opts.find("ustackbytes");
	if (it == opts.end())
		return k_ustack_default_bytes;
	if (option_unsets(it->first, it->second))
		return 0;
	return static_cast<uint32_t>(
		std::min<uint64_t>(parse_size_option(it->first, it->second), 16384));
}

} // namespace dt
