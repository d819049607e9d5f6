// SPDX-License-Identifier: MIT
//
// program_blob.hpp - a compiled dt::program as the DTRACEIOC_ENABLE blob
// (kmod/include/uapi/dtrace/ioctl.h §4), written with blob_writer:
//
//   header      options, the resolved options (dtrace/options.hpp has the
//               defaults) within dtrace.ko's limits: bufsize, aggsize (0
//               unless the program aggregates), dynvarsize (0 unless some
//               DIF uses self-> or associative arrays), strsize (at most
//               64k), nspec (at most DTRACE_MAX_NSPEC), specsize, cleanrate
//               (0: the kernel's 101hz), bufpolicy fill/ring flags;
//               DTRACE_PROGF_DESTRUCTIVE with -w; DTRACE_PROGF_CPU and
//               dtph_cpu with option cpu
//   DIFO        every predicate and record expression, once per clause
//   AGG         every aggregation, by id
//   ECB         one per (clause, probe description), cookie = its index
//               in `ecbs` + 1; then the engine's own dtrace:::ERROR ECB
//               (cookie error_cookie) recording arg1..arg5 at offsets
//               16..48, from which the engine reports faults (libdtrace's
//               own ERROR enabling in illumos)
//
// Action records, numbered from 1 per ECB as ERROR's arg2 counts them
// (the user engine's action indexes):
//   aggregating action   KEY per key, VAL (args[0], none for count()),
//                        INCR (args[1]) when given
//   other action         one ARG per argument (one with no DIF when it
//                        has none); records == false writes nothing
#pragma once

#include "../options.hpp"

#include "blob_writer.hpp"

#include <dtrace/engine.hpp>
#include <dtrace/program.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dt::kmod {

struct blob_options {
	// Replace destructive actions by plain records (the engine refuses
	// to go() without -w anyway, as the other engines do, and dtrace.ko
	// would refuse them at ENABLE, before that message).
	bool strip_destructive = false;
	// -w or #pragma D option destructive: the kernel accepts system().
	bool destructive = false;
	uint64_t max_bufsize = 64ull << 20; // DTRACEIOC_CONF's dtc_max_bufsize
	// D's option cpu: only that CPU is traced (DTRACE_PROGF_CPU).
	std::optional<uint64_t> cpu;
};

struct ecb_origin {
	uint32_t clause = 0;
	probe_desc desc;
	// The ECB section's bytes in the blob, [begin, end): where dtrace.ko's
	// dten_erroff points when it refuses this ECB.
	uint32_t begin = 0, end = 0;
};

struct program_blob {
	std::vector<uint8_t> bytes;
	std::vector<ecb_origin> ecbs; // [cookie - 1]
	uint32_t error_cookie = 0;
	uint64_t bufsize = 0, aggsize = 0;
};

// The header carries opts (p's resolved options, dtrace/options.hpp)
// within dtrace.ko's limits. Throws engine_error for a probe description
// field too long for the ABI.
[[nodiscard]] program_blob make_program_blob(const program &p, const resolved_options &opts,
					     const blob_options &o);
// The same with p's options resolved here (engine_options(): throws
// engine_error for a value that does not read).
[[nodiscard]] program_blob make_program_blob(const program &p, const blob_options &o);

} // namespace dt::kmod
