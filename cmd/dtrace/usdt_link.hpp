// SPDX-License-Identifier: MIT
// dtrace -G's ELF work (usdt_link.cc): the probe calls of objects built
// for DTrace's flow become stapsdt probe sites, and the object that the
// build links beside them is written.
#pragma once

#include <dtrace/compiler.hpp>

#include <string>
#include <utility>
#include <vector>

namespace dt::cli {

using provider_defs = std::vector<compiler::provider_definition>;

// Rewrite, in place, each relocatable object's calls of
// __dtrace_PROV___PROBE(args...) into probe sites (see usdt_link.cc).
// False with `why` (DTrace's wording after "failed to link ...: ") on an
// object that is not an x86_64 ELF relocatable, a call of a probe that
// `defs` does not define, or a call site that cannot be rewritten.
[[nodiscard]] bool rewrite_objects(const provider_defs &defs, const std::vector<std::string> &objs,
				   std::string &why);

// What the object for the link holds besides the probes' code: the
// program record (.SUNW_dof). `strip` leaves out the comment and the
// system's name, as DTRACE_D_STRIP (-x strip) does.
struct link_record {
	std::vector<std::pair<std::string, std::string>> sources; // name, D text
	std::string comment;					  // "dtrace VERSION"
	bool strip = false;
};

// The record alone, as -x linktype=dof writes it.
[[nodiscard]] std::string record_bytes(const link_record &r);

// Write the relocatable object for `defs` (each probe's semaphore and
// is-enabled function) and the record to `path`.
[[nodiscard]] bool write_link_object(const std::string &path, const provider_defs &defs,
				     const link_record &r, std::string &why);

} // namespace dt::cli
