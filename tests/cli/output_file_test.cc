// SPDX-License-Identifier: MIT
// dtrace -o FILE: output goes to FILE, appended to (illumos opens it "a"),
// and nothing goes to stdout.
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

std::string read_file(const std::string &p)
{
	std::ifstream in(p);
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

} // namespace

TEST(OutputFile, ListingIsAppendedToTheFile)
{
	std::string path = std::filesystem::temp_directory_path() /
			   ("dt-output-" + std::to_string(getpid()));
	std::filesystem::remove(path);
	auto once = dt::test::dtrace({"-l", "-n", "dtrace:::BEGIN", "-o", path});
	EXPECT_EQ(once.status, 0) << once.err;
	EXPECT_EQ(once.out, "");
	const std::string listing =
		"   ID   PROVIDER            MODULE                          FUNCTION NAME\n"
		"    1     dtrace                                                     BEGIN\n";
	EXPECT_EQ(read_file(path), listing);
	auto twice = dt::test::dtrace({"-l", "-n", "dtrace:::BEGIN", "-o", path});
	EXPECT_EQ(twice.status, 0) << twice.err;
	EXPECT_EQ(read_file(path), listing + listing);
	std::filesystem::remove(path);
}

TEST(OutputFile, UnwritableFileIsAnError)
{
	auto r = dt::test::dtrace({"-l", "-o", "/nonexistent-dir/out.txt"});
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "dtrace: failed to open output file '/nonexistent-dir/out.txt': "
			 "No such file or directory\n");
}
