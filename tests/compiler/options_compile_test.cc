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
	program p = compile_s("#pragma D option ustackbytes=0\n"
			      "BEGIN { stack(); ustack(); jstack(); }\n");
	EXPECT_EQ(record_size(p, 0), 20u * 8);		   // stackframes 20
	EXPECT_EQ(record_size(p, 1), (100u + 1) * 8);	   // ustackframes 100
	EXPECT_EQ(record_size(p, 2), (50u + 1) * 8 + 512); // jstackframes 50, 512
}

TEST(compile_options, pragmas_set_the_frames)
{
	program p = compile_s("#pragma D option stackframes=3\n"
			      "#pragma D option ustackbytes=0\n"
			      "#pragma D option ustackframes=0x4\n"
			      "#pragma D option jstackframes=2\n"
			      "#pragma D option jstackstrsize=1k\n"
			      "BEGIN { stack(); ustack(); jstack(); }\n");
	EXPECT_EQ(record_size(p, 0), 3u * 8);
	EXPECT_EQ(record_size(p, 1), (4u + 1) * 8);
	EXPECT_EQ(record_size(p, 2), (2u + 1) * 8 + 1024);
}

// Without -x ustackbytes a ustack() record holds registers and 4 KiB of
// stack (docs/ustack.md), three of them a clause; later ones and jstack()
// hold pcs. A key holds the same 4 KiB of stack, or pcs where that would
// make the keys larger than the bpf engine's 16 KiB (less the prefix).
TEST(compile_options, ustack_copies_the_stack_by_default)
{
	program p = compile_s("BEGIN { ustack(); ustack(3); ustack(); ustack(); jstack(); }\n"
			      "BEGIN { @a[ustack(4)] = count(); @b[execname, ustack()] = count();"
			      " @c[execname, probefunc, ustack()] = count();"
			      " @d[ustack(), ustack()] = count();"
			      " @e[ustack(), ustack(), ustack(), ustack()] = count(); }\n");
	EXPECT_EQ(record_size(p, 0), 40u + 4096);
	EXPECT_EQ(record_size(p, 1), 40u + 4096);
	EXPECT_EQ(record_size(p, 2), 40u + 4096);
	EXPECT_EQ(record_size(p, 3), (100u + 1) * 8);
	EXPECT_EQ(record_size(p, 4), (50u + 1) * 8 + 512);
	ASSERT_EQ(p.aggregations.size(), 5u);
	EXPECT_EQ(p.aggregations[0].keys[0].size, 40u + 4096);
	EXPECT_EQ(p.aggregations[0].keys[0].frames, 4u); // unwound to ustack(4)'s frames
	EXPECT_EQ(p.aggregations[1].keys[1].size, 40u + 4096);
	EXPECT_EQ(p.aggregations[2].keys[2].size, 40u + 4096);
	EXPECT_EQ(p.aggregations[2].keys[2].frames, 100u);
	EXPECT_EQ(p.aggregations[3].keys[0].size, 40u + 4096);
	EXPECT_EQ(p.aggregations[3].keys[1].size, 40u + 4096);
	EXPECT_EQ(p.aggregations[4].keys[3].size, (100u + 1) * 8);
	EXPECT_EQ(p.aggregations[4].keys[3].frames, 0u);
	// An explicit size applies to keys too, up to 8 KiB.
	program k = compile_s("#pragma D option ustackbytes=16k\n"
			      "BEGIN { @[ustack()] = count(); }\n");
	EXPECT_EQ(k.aggregations[0].keys[0].size, 40u + 8192);
	// An explicit size applies to every one.
	program q = compile_s("#pragma D option ustackbytes=1k\n"
			      "BEGIN { ustack(); ustack(); ustack(); ustack(); }\n");
	EXPECT_EQ(record_size(q, 3), 40u + 1024);
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
