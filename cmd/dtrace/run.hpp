// SPDX-License-Identifier: MIT
// dtrace(1)'s run path: compile, enable, trace, consume (run.cc).
#pragma once

#include "options.hpp"

#include <dtrace/session.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

namespace dt::cli {

// A piece of the program as the compiler takes it.
[[nodiscard]] compiler::input input_of(const command &c);

// stdout, or the -o file (appended to, as illumos).
[[nodiscard]] FILE *open_output(const options &o);

// The session for the command line: its settings, -x/-b options and -c/-p
// processes (dtrace prints what fails and exits). `notice`: process ends.
[[nodiscard]] std::unique_ptr<session> open_session(
	const options &o, const char *argv0, std::function<void(const std::string &)> notice = {});

// Compile the program pieces in `o`, enable them on the chosen engine and
// consume until exit(), ^C, or the -c/-p processes are gone. Prints
// DTrace's messages; returns the exit status (exit()'s, or E_*).
[[nodiscard]] int run_program(const options &o, const char *argv0);

} // namespace dt::cli
