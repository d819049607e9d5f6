// SPDX-License-Identifier: MIT
//
// engine/buffer_sizes.hpp - what illumos' dtrace_state_go() checks of the
// buffer options before BEGIN, once for every engine:
//
//   enable():  buffer_needs_of(program, enabling)   what the ECBs record
//   go():      check_buffer_sizes(needs, options)   refuse, in DTrace's words
//
//   - a principal, speculation or aggregation buffer that is needed but
//     smaller than 8 bytes (a size of 0 included): ENOSPC, which
//     dtrace_go() reports as EDT_BUFTOOSMALL "Enabling exceeds size of
//     buffer". A program with aggregations (and aggsize not 0) has its
//     principal buffer raised to the largest record first, since the
//     aggregation buffer needs one as scratch;
//   - under the fill policy, a principal buffer smaller than what the END
//     clauses may record: E2BIG, EDT_ENDTOOBIG "END enablings exceed size
//     of principal buffer".
#pragma once

#include <dtrace/engine.hpp>
#include <dtrace/options.hpp>
#include <dtrace/program.hpp>

#include <cstdint>

namespace dt::engines {

struct buffer_needs {
	uint64_t needed = 0;	  // the largest firing that writes a record
	uint64_t end_reserve = 0; // what the END clauses' firings write
	bool aggregates = false;  // some ECB aggregates
	bool speculates = false;  // some ECB speculates
};

// What the ECBs of `en` (clauses of `p`) need of the buffers.
[[nodiscard]] buffer_needs buffer_needs_of(const program &p, const enabling &en);

// The principal buffer's size: bufsize, raised to the largest record when
// the aggregations need it as scratch.
[[nodiscard]] uint64_t principal_bufsize(const buffer_needs &n, const resolved_options &o);

// Throws engine_error when the buffer options cannot hold what `n` needs.
void check_buffer_sizes(const buffer_needs &n, const resolved_options &o);

} // namespace dt::engines
