// SPDX-License-Identifier: MIT
// Test support: run the built dtrace(1) (or any program) and capture its
// standard output, standard error and exit status.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace dt::test {

struct result {
	std::string out;
	std::string err;
	int status = -1; // exit status, or 128+signal
};

// Path of the dtrace binary in the build tree.
[[nodiscard]] const char *dtrace_bin();
// Source and build roots of this checkout.
[[nodiscard]] const char *source_dir();
[[nodiscard]] const char *build_dir();

// Run `argv` (argv[0] is the program path). `env` entries are added to
// (or replace) the environment; a value "\x01unset" removes the variable.
[[nodiscard]] result run(const std::vector<std::string> &argv,
			 const std::map<std::string, std::string> &env = {});

// Run the built dtrace with these arguments.
[[nodiscard]] result dtrace(const std::vector<std::string> &args,
			    const std::map<std::string, std::string> &env = {});

// Lines of `s`, without their newlines.
[[nodiscard]] std::vector<std::string> lines(const std::string &s);

// Is the test running as root? (Kernel-facing tests need it.)
[[nodiscard]] bool is_root();

} // namespace dt::test
