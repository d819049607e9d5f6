// SPDX-License-Identifier: MIT
// The bpf engine with strsize above 1023 (up to DT_BPF_STRSIZE_MAX - 1,
// 4096): a 3000+ byte path copied from the process the test starts and
// kept whole through copyinstr(), printf %s, trace(), a thread-local, an
// associative array's key, strjoin() and comparisons; the loop-free string
// functions verified at that size and agreeing with the user engine; and
// the bounds that remain refused with DTrace-style messages.
#include "cli_support.hpp"
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using dt::test::result;
using namespace dt::test::bpf_cli;

// A file whose path is more than 3000 characters (301 nested directories
// of 10 characters each), removed with its tree when the fixture goes.
class long_path {
public:
	long_path()
	{
		top_ = std::filesystem::temp_directory_path() /
		       ("dt-bpf-strsize-" + std::to_string(getpid()));
		std::filesystem::path p = top_;
		for (int i = 0; i < 301; i++)
			p /= "d" + std::to_string(100000000 + i);
		std::filesystem::create_directories(p);
		path_ = (p / "f.txt").string();
		std::ofstream(path_) << "x\n";
	}
	~long_path() { std::filesystem::remove_all(top_); }
	long_path(const long_path &) = delete;
	long_path &operator=(const long_path &) = delete;
	const std::string &path() const { return path_; }

private:
	std::filesystem::path top_;
	std::string path_;
};

TEST(bpf_strsize, a_3000_byte_user_string_is_traced_whole)
{
	REQUIRE_BPF();
	long_path lp;
	ASSERT_GT(lp.path().size(), 3000u);
	ASSERT_LT(lp.path().size(), 4096u);
	const std::string prog =
		"syscall::openat:entry /pid == $target/ { self->p = copyinstr(arg1); }\n"
		"syscall::openat:entry /pid == $target && strlen(self->p) > 3000/ {\n"
		"  printf(\"printf %s\\n\", copyinstr(arg1));\n"
		"  trace(self->p); printf(\"\\n\");\n"
		"  len[self->p] = strlen(self->p);\n"
		"  j = strjoin(self->p, \"!\");\n"
		"  printf(\"same %d %d\\n\", self->p == copyinstr(arg1), j == self->p);\n"
		"}\n"
		"syscall::openat:return /pid == $target && len[self->p]/ {\n"
		"  printf(\"key %d\\njoin %s\\n\", len[self->p], j);\n"
		"}\n"
		"syscall::openat:return /pid == $target/ { self->p = 0; }\n";
	result r = dtrace(bpf({"-x", "strsize=4096", "-n", prog, "-c",
			       std::string(DT_BPF_WORKLOAD) + " open " + lp.path()}));
	ASSERT_EQ(r.status, 0) << r.err;
	auto ls = dt::test::lines(r.out);
	const std::string &p = lp.path();
	std::vector<std::string> want{"printf " + p,	 p,
				      "same 1 0",	 "key " + std::to_string(p.size()),
				      "join " + p + "!", ""}; // the blank line dtrace ends with
	EXPECT_EQ(ls, want) << r.err;
}

TEST(bpf_strsize, string_functions_verify_and_agree_with_the_user_engine)
{
	REQUIRE_BPF();
	// A 4000-character string built by the loop-free functions (strjoin,
	// substr), then the word-at-a-time ones (strchr, strrchr, toupper,
	// tolower, comparisons) on it: every program is loaded (verified) at
	// strsize 4096 and prints what the interpreter prints.
	std::string prog = "BEGIN { s = \"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN\"; "
			   "s = strjoin(s, s); s = strjoin(s, s); s = strjoin(s, s); "
			   "s = strjoin(s, s); s = strjoin(s, s); s = strjoin(s, s); "
			   "t = strjoin(s, \"-end\"); }\n";
	prog += "BEGIN { printf(\"%d %d\\n\", strlen(s), strlen(t)); "
		"printf(\"%s\\n\", substr(t, 3198)); "
		"printf(\"%s\\n\", strchr(t, '-')); "
		"printf(\"%d\\n\", strlen(strrchr(t, 'a'))); }\n"
		"BEGIN { printf(\"%s\\n\", substr(toupper(t), 3194)); "
		"printf(\"%s\\n\", substr(tolower(t), 3194)); }\n"
		"BEGIN { printf(\"%d %d %d\\n\", s < t, t == strjoin(s, \"-end\"), s != t); "
		"exit(0); }";
	result u = expect_same_as_user({"-q", "-x", "strsize=4096", "-n", prog});
	EXPECT_EQ(u.status, 0) << u.err;
	EXPECT_EQ(u.out, "3200 3204\n"
			 "MN-end\n"
			 "-end\n"
			 "44\n"
			 "IJKLMN-END\n"
			 "ijklmn-end\n"
			 "1 1 1\n\n")
		<< u.err;
}

TEST(bpf_strsize, above_4096_is_refused_at_enable)
{
	REQUIRE_BPF();
	result r = dtrace(bpf({"-x", "strsize=4097", "-n", "BEGIN { trace(\"x\"); exit(0); }"}));
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("strsize 4097 is above the largest the bpf engine supports (4096)"),
		  std::string::npos)
		<< r.err;
}

TEST(bpf_strsize, byte_loop_functions_above_1023_are_refused_with_their_name)
{
	REQUIRE_BPF();
	result r = dtrace(bpf(
		{"-x", "strsize=2048", "-n", "BEGIN { trace(strstr(\"abc\", \"b\")); exit(0); }"}));
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("strstr() supports strsize up to 1023 (strsize is 2048)"),
		  std::string::npos)
		<< r.err;
	// At 1023 it runs.
	result ok = dtrace(bpf(
		{"-x", "strsize=1023", "-n", "BEGIN { trace(strstr(\"abc\", \"b\")); exit(0); }"}));
	EXPECT_EQ(ok.status, 0) << ok.err;
	EXPECT_EQ(ok.out, "bc\n");
}

} // namespace
