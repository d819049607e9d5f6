// SPDX-License-Identifier: MIT
// dtrace -x verbose: the compiler's DIF on stderr, as -S prints it (illumos
// maps both to DTRACE_C_DIFV). The DIFO lines carry an address that varies
// from run to run, so the listing is compared without them.
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace {

std::string without_difo_lines(const std::string &s)
{
	std::istringstream in(s);
	std::string line, out;
	while (std::getline(in, line))
		if (line.rfind("DIFO ", 0) != 0)
			out += line + "\n";
	return out;
}

} // namespace

TEST(CompileOptions, VerboseListsTheDifAsDashS)
{
	const std::string prog = "BEGIN { trace(7); }";
	auto verbose = dt::test::dtrace({"-e", "-x", "verbose", "-n", prog});
	auto dash_s = dt::test::dtrace({"-e", "-S", "-n", prog});
	ASSERT_EQ(verbose.status, 0) << verbose.err;
	ASSERT_EQ(dash_s.status, 0) << dash_s.err;
	EXPECT_NE(verbose.err.find("OFF OPCODE      INSTRUCTION"), std::string::npos)
		<< verbose.err;
	EXPECT_EQ(without_difo_lines(verbose.err), without_difo_lines(dash_s.err));
}

TEST(CompileOptions, VerboseTakesNoValue)
{
	auto r = dt::test::dtrace({"-e", "-x", "verbose=1", "-n", "BEGIN"});
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "dtrace: failed to set -x verbose: Invalid value for specified option\n");
}
