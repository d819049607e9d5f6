// SPDX-License-Identifier: MIT
// dtrace(1)'s run path: compile, enable, trace, consume (run.cc).
#pragma once

#include "options.hpp"

namespace dt {
class session;
}

namespace dt::cli {

// -x evaltime, -c and -p on the session (dtrace prints what fails and
// exits).
void start_processes(const options &o, session &s);

// Compile the program pieces in `o`, enable them on the chosen engine and
// consume until exit(), ^C, or the -c/-p processes are gone. Prints
// DTrace's messages; returns the exit status (exit()'s, or E_*).
[[nodiscard]] int run_program(const options &o, const char *argv0);

} // namespace dt::cli
