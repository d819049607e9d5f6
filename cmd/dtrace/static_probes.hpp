// SPDX-License-Identifier: MIT
//
// dtrace -h (a C header of USDT probe macros) and dtrace -G (the object a
// DTrace-style build links), from a provider definition given with -s;
// see static_probes.cc. Each returns dtrace(1)'s exit status.
#pragma once

#include "options.hpp"

namespace dt::cli {

[[nodiscard]] int header_main(const options &o);
// argv0: the program name, for compiling a D program given to -G;
// version: dtrace -V's, for the record.
[[nodiscard]] int link_main(const options &o, const char *argv0, const char *version);

} // namespace dt::cli
