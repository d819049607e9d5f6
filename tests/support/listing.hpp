// SPDX-License-Identifier: MIT
// Test support: reading `dtrace -lv` output.
#pragma once

#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

namespace dt::test {

// The "args[N]: type" lines of a -lv listing, in order (N must count up
// from 0 within `out`).
inline std::vector<std::string> arg_types(const std::string &out)
{
	std::vector<std::string> v;
	static const std::regex re(R"(^\t\targs\[(\d+)\]: (.*)$)");
	for (const auto &l : lines(out)) {
		std::smatch m;
		if (std::regex_match(l, m, re)) {
			EXPECT_EQ(std::stoul(m[1]), v.size()) << l;
			v.push_back(m[2]);
		}
	}
	return v;
}

// The -lv text of a probe's stability (illumos print_probe_info()): a
// blank line, then "Probe Description Attributes" and "Argument
// Attributes", each with its identifier names, data semantics and
// dependency class ("Private", "Evolving", "ISA" ...).
inline std::string lv_attributes(const char *probe_names, const char *probe_data,
				 const char *probe_class, const char *arg_names,
				 const char *arg_data, const char *arg_class)
{
	auto block = [](const char *title, const char *n, const char *d, const char *c) {
		return std::string("\n\t") + title + "\n\t\tIdentifier Names: " + n +
		       "\n\t\tData Semantics:   " + d + "\n\t\tDependency Class: " + c + "\n";
	};
	return block("Probe Description Attributes", probe_names, probe_data, probe_class) +
	       block("Argument Attributes", arg_names, arg_data, arg_class);
}

// The -lv text of the argument types that follows: a blank line,
// "Argument Types", "args[N]: type" for each ("None" for none), a blank line.
inline std::string lv_types(const std::vector<std::string> &types)
{
	std::string s = "\n\tArgument Types\n";
	for (size_t i = 0; i < types.size(); i++)
		s += "\t\targs[" + std::to_string(i) + "]: " + types[i] + "\n";
	if (types.empty())
		s += "\t\tNone\n";
	return s + "\n";
}

} // namespace dt::test
