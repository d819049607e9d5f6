// SPDX-License-Identifier: MIT
// `dtrace -l`: listing probes in DTrace's format (list.cc).
#pragma once

#include "options.hpp"

#include <dtrace/session.hpp>

#include <cstdio>

namespace dt::cli {

// The -l mode: a session, its processes created or grabbed, the probes
// listed to stdout or -o. Prints DTrace's messages; returns the status.
int list_main(const options &o, const char *argv0);

} // namespace dt::cli
