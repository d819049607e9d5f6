// SPDX-License-Identifier: MIT
// `dtrace -l`: listing probes in DTrace's format.
#pragma once

#include "options.hpp"

#include <dtrace/provider.hpp>

#include <cstdio>

namespace dt::cli {

// Expand macro variables ($target, $pid, $1 ...) in a probe specifier.
// Returns false with `why` set for an undefined $N.
[[nodiscard]] bool expand_macros(const std::string &in, const options &o,
				 std::string &out, std::string &why);

// The -l mode. Returns the exit status.
int list_probes(const options &o, provider_registry &reg, FILE *out);

} // namespace dt::cli
