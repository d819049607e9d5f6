// SPDX-License-Identifier: MIT
// dtrace(1) command-line options.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dt::cli {

// Exit statuses, as illumos dtrace(1M).
enum exit_status { E_SUCCESS = 0, E_ERROR = 1, E_USAGE = 2 };

// One program piece given on the command line, in order.
struct command {
	char opt; // 'P', 'm', 'f', 'n', 'i' or 's'
	std::string arg;
	std::string text; // -s: the script's text if already read (-G), else ""
};

// One -x option (or -b, -X, -L ... kept as "-b" etc.): has_value false for
// a bare "-x NAME", which a flag option needs and a size option refuses.
struct xopt {
	std::string name, value;
	bool has_value = true;
};

struct options {
	bool list = false;	   // -l
	bool verbose = false;	   // -v
	bool quiet = false;	   // -q
	bool version = false;	   // -V
	bool zdefs = false;	   // -Z
	bool destructive = false;  // -w
	bool compile_only = false; // -e
	bool show_dif = false;	   // -S
	bool cpp = false;	   // -C
	bool core = false;	   // -x core: dump core on the way out
	bool engines = false;	   // -x engines: -l tabulates the engines
	std::string outfile;	   // -o
	std::vector<command> commands;
	std::vector<std::string> cpp_args;   // -D -U -I, as given
	std::vector<xopt> xopts;	     // -x opt[=val]
	std::vector<int32_t> grab;	     // -p
	std::vector<std::string> run;	     // -c
	std::vector<std::string> macro_args; // operands: $1, $2 ...
};

// Parse argv. Prints DTrace's diagnostics itself and returns false with
// `status` set when the command line is bad (or is just "dtrace").
[[nodiscard]] bool parse_options(int argc, char **argv, options &o, int &status);

void print_usage(const char *pname);

} // namespace dt::cli
