// SPDX-License-Identifier: MIT
// CLI golden tests: every tests/cli/cases/NAME.args (one argument per line)
// runs the built dtrace; its stdout, stderr and exit status must equal
// NAME.out, NAME.err and NAME.status (a missing file means "empty" / 0).
// DTRACE_GOLDEN_UPDATE=1 rewrites the expectations from the actual run
// (review the diff before committing it).
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const fs::path cases_dir = fs::path(DTRACE_TEST_CASES_DIR);

std::string read_file(const fs::path &p)
{
	std::ifstream in(p);
	if (!in)
		return {};
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

void write_or_remove(const fs::path &p, const std::string &s)
{
	if (s.empty())
		fs::remove(p);
	else
		std::ofstream(p) << s;
}

std::vector<std::string> case_names()
{
	std::vector<std::string> v;
	for (const auto &e : fs::directory_iterator(cases_dir))
		if (e.path().extension() == ".args")
			v.push_back(e.path().stem().string());
	std::sort(v.begin(), v.end());
	return v;
}

class golden : public ::testing::TestWithParam<std::string> {};

TEST_P(golden, Matches)
{
	const fs::path base = cases_dir / GetParam();
	std::vector<std::string> args;
	{
		std::ifstream in(base.string() + ".args");
		std::string line;
		while (std::getline(in, line))
			args.push_back(line);
	}
	auto r = dt::test::dtrace(args);
	std::string status = std::to_string(r.status) + "\n";
	if (std::getenv("DTRACE_GOLDEN_UPDATE")) {
		write_or_remove(base.string() + ".out", r.out);
		write_or_remove(base.string() + ".err", r.err);
		write_or_remove(base.string() + ".status", r.status ? status : "");
		GTEST_SKIP() << "expectations rewritten";
	}
	std::string want_status = read_file(base.string() + ".status");
	EXPECT_EQ(r.out, read_file(base.string() + ".out")) << "stdout of " << GetParam();
	EXPECT_EQ(r.err, read_file(base.string() + ".err")) << "stderr of " << GetParam();
	EXPECT_EQ(status, want_status.empty() ? "0\n" : want_status)
		<< "exit status of " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(cli, golden, ::testing::ValuesIn(case_names()),
			 [](const auto &param_info) { return param_info.param; });

} // namespace
