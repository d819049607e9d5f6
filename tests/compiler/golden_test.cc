// SPDX-License-Identifier: MIT
// Compiler golden cases (tests/compiler/golden/), run through the built
// dtrace(1) with -e (compile only) and -x errtags:
//   err.D_TAG.NAME.d   must fail to compile: exit status 1, stderr equal to
//                      err.D_TAG.NAME.err (the script named by its file
//                      name), whose message carries [D_TAG];
//   tst.NAME.d         must compile: exit status 0, no output.
// Expected texts follow illumos libdtrace's wording (dt_cc.c, dt_parser.c).
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const fs::path cases = fs::path(DTRACE_COMPILER_GOLDEN_DIR);

std::string slurp(const fs::path &p)
{
	std::ifstream in(p);
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

std::vector<std::string> scripts()
{
	std::vector<std::string> v;
	for (const auto &e : fs::directory_iterator(cases))
		if (e.path().extension() == ".d")
			v.push_back(e.path().stem().string());
	std::sort(v.begin(), v.end());
	return v;
}

std::string replace_all(std::string s, const std::string &from, const std::string &to)
{
	for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
		s.replace(at, from.size(), to);
	return s;
}

class compiler_golden : public ::testing::TestWithParam<std::string> {};

TEST_P(compiler_golden, Matches)
{
	const std::string name = GetParam();
	const fs::path script = cases / (name + ".d");
	auto r = dt::test::dtrace({"-x", "errtags", "-e", "-s", script.string()});
	std::string err = replace_all(r.err, script.string(), script.filename().string());
	if (name.rfind("err.", 0) == 0) {
		std::string tag = name.substr(4, name.find('.', 4) - 4);
		EXPECT_EQ(r.status, 1);
		EXPECT_NE(err.find("[" + tag + "]"), std::string::npos) << err;
		EXPECT_EQ(err, slurp(cases / (name + ".err")));
	} else {
		EXPECT_EQ(r.status, 0) << err;
		EXPECT_EQ(err, "");
		EXPECT_EQ(r.out, "");
	}
}

INSTANTIATE_TEST_SUITE_P(
	cases, compiler_golden, ::testing::ValuesIn(scripts()),
	[](const ::testing::TestParamInfo<std::string> &i) {
		std::string n = i.param;
		std::replace_if(
			n.begin(), n.end(),
			[](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
		return n;
	});

} // namespace
