// SPDX-License-Identifier: MIT
// `dtrace -l`: listing probes in DTrace's format (list.cc).
#pragma once

#include "options.hpp"

#include <dtrace/session.hpp>

#include <cstdio>
#include <vector>

namespace dt::cli {

// The -l mode: a session, its processes created or grabbed, the probes
// listed to stdout or -o. Prints DTrace's messages; returns the status.
int list_main(const options &o, const char *argv0);

// "\n\tTITLE\n" and the three lines of one attribute, as dtrace.c's
// print_probe_info() and exec_prog() print them (-lv, -v).
void print_attr_block(FILE *out, const char *title, dt_attribute_t a);
// A probe's attributes and argument types, as dtrace.c's print_probe_info()
// (-lv, and -e -v for each description of the program).
void print_probe_info(FILE *out, dt_attribute_t desc, dt_attribute_t args,
		      const std::vector<arg_desc> &types);

} // namespace dt::cli
