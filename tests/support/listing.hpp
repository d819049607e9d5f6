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

} // namespace dt::test
