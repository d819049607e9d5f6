// SPDX-License-Identifier: MIT
// The compiler's options (dtrace/options.hpp): the record layouts it takes
// from the typed values, -x before pragmas, pragmas as they come.
#include "helpers.hpp"

namespace {

using dt::program;
using dt::test::compile_s;

// The size of clause 0's action a's first record.
uint32_t record_size(const program &p, size_t a)
{
	return p.clauses.at(0).actions.at(a).args.at(0).size;
}

TEST(compile_options, stack_records_take_the_frame_defaults)
{
	program p = compile_s("BEGIN { stack(); ustack(); jstack(); }\n");
	EXPECT_EQ(record_size(p, 0), 20u * 8);		   // stackframes 20
	EXPECT_EQ(record_size(p, 1), (100u + 1) * 8);	   // ustackframes 100
	EXPECT_EQ(record_size(p, 2), (50u + 1) * 8 + 512); // jstackframes 50, 512
}

TEST(compile_options, pragmas_set_the_frames)
{
	program p = compile_s("#pragma D option stackframes=3\n"
			      "#pragma D option ustackframes=0x4\n"
			      "#pragma D option jstackframes=2\n"
			      "#pragma D option jstackstrsize=1k\n"
			      "BEGIN { stack(); ustack(); jstack(); }\n");
	EXPECT_EQ(record_size(p, 0), 3u * 8);
	EXPECT_EQ(record_size(p, 1), (4u + 1) * 8);
	EXPECT_EQ(record_size(p, 2), (2u + 1) * 8 + 1024);
}

// illumos dt_opt_runtime(): a positive word is 1 (the compiler used to take
// the default for it), a negative word unsets.
TEST(compile_options, runtime_words_are_counts)
{
	program p = compile_s("#pragma D option stackframes=yes\nBEGIN { stack(); }\n");
	EXPECT_EQ(record_size(p, 0), 8u);
	p = compile_s("#pragma D option stackframes=off\nBEGIN { stack(); }\n");
	EXPECT_EQ(record_size(p, 0), 20u * 8);
}

TEST(compile_options, command_line_wins_over_pragmas)
{
	auto s = dt::test::default_settings();
	s.options["stackframes"] = "5";
	program p = compile_s("#pragma D option stackframes=3\nBEGIN { stack(); }\n", s);
	EXPECT_EQ(record_size(p, 0), 5u * 8);
}

// strsize as the engines read it: at least 1, any size suffix; a string
// record holds that many characters and a NUL.
TEST(compile_options, strsize_reads_as_a_size)
{
	auto s = dt::test::default_settings();
	s.options["strsize"] = "0";
	EXPECT_EQ(record_size(compile_s("BEGIN { trace(execname); }\n", s), 0), 2u);
	s.options["strsize"] = "1k";
	EXPECT_EQ(record_size(compile_s("BEGIN { trace(execname); }\n", s), 0), 1025u);
}

} // namespace
