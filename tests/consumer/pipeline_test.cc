// SPDX-License-Identifier: MIT
//
// pipeline_test.cc - D source through the compiler and the user engine into
// the consumer: the Dynamic Tracing Guide's first examples print what the
// Guide shows.
#include "harness.hpp"

#include <dtrace/compiler.hpp>
#include <dtrace/engine.hpp>
#include <dtrace/provider.hpp>

#include <gtest/gtest.h>

namespace {

using namespace dt;

struct result {
	std::string out, err;
	std::optional<int> status;
};

result run(const std::string &script, bool quiet = false)
{
	provider_registry reg{{DTRACE_TEST_PLUGIN_DIR}, {}, [](const std::string &) {}};
	compiler::settings cs;
	cs.macro_args = {"dtrace"};
	cs.registry = &reg;
	compiler::input in;
	in.k = compiler::input::kind::script;
	in.text = script;
	in.file = "test.d";
	program p = compiler::compile({in}, cs);
	engine_settings es{&reg, false, false, {}};
	auto e = make_user_engine(es);
	auto eps = e->enable(p);
	test::capture out, err;
	consumer_settings s;
	s.out = out.file();
	s.err = err.file();
	s.quiet = quiet;
	consumer c(p, eps, s);
	e->go();
	for (int i = 0; i < 100 && !e->exiting(); i++) {
		e->wait(std::chrono::milliseconds(10));
		e->drain(c);
	}
	e->stop();
	e->drain(c);
	c.finish();
	return {out.text(), err.text(), c.exit_status()};
}

// The Guide's hello.d.
TEST(Pipeline, HelloWorld)
{
	auto r = run("BEGIN\n{\n\ttrace(\"hello, world\");\n\texit(0);\n}\n");
	// The CPU column is the CPU BEGIN ran on.
	const size_t line2 = r.out.find('\n') + 1;
	ASSERT_GT(r.out.size(), line2 + 3);
	std::string cpu = r.out.substr(line2, 3);
	EXPECT_EQ(cpu.find_first_not_of(" 0123456789"), std::string::npos);
	EXPECT_EQ(r.out, "CPU     ID                    FUNCTION:NAME\n" + cpu +
				 "      1                           :BEGIN   hello, world"
				 "                     \n\n");
	ASSERT_TRUE(r.status.has_value());
	EXPECT_EQ(*r.status, 0);
}

TEST(Pipeline, QuietPrintfAndAggregationsAtExit)
{
	auto r = run("#pragma D option quiet\n"
		     "BEGIN { printf(\"%d %s\\n\", 42, \"x\"); @a[\"k\"] = count(); "
		     "@a[\"k\"] = count(); @q = quantize(3); exit(3); }\n");
	EXPECT_EQ(r.out, "42 x\n\n"
			 "  k                                                                 2\n"
			 "\n"
			 "           value  ------------- Distribution ------------- count    \n"
			 "               1 |                                         0        \n"
			 "               2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
			 "               4 |                                         0        \n"
			 "\n");
	ASSERT_TRUE(r.status.has_value());
	EXPECT_EQ(*r.status, 3);
}

TEST(Pipeline, PrintaFormat)
{
	auto r = run(
		"BEGIN { @c[\"b\", 2] = count(); @c[\"b\", 2] = count(); @c[\"a\", 1] = count();"
		" printa(\"%s %d => %@d\\n\", @c); exit(0); }",
		true);
	EXPECT_EQ(r.out, "a 1 => 1\nb 2 => 2\n\n");
}

TEST(Pipeline, FaultMessage)
{
	auto r = run("BEGIN { trace(*(int *)0); }\nBEGIN { exit(0); }", true);
	// The DIF offset depends on the code generated; the rest is fixed.
	const std::string head = "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): "
				 "invalid address (0x0) in action #1 at DIF offset ";
	ASSERT_EQ(r.err.substr(0, head.size()), head);
	EXPECT_EQ(r.err.back(), '\n');
	EXPECT_EQ(r.out, "\n");
}

// A fault inside an ERROR clause is a double error: counted, and reported
// in dt_handle.c's words, before the original fault's message.
TEST(Pipeline, DoubleErrorInErrorClause)
{
	auto r = run("BEGIN { trace(*(int *)0); }\nERROR { trace(*(int *)0); }\n"
		     "BEGIN { exit(0); }",
		     true);
	const std::string head = "dtrace: 1 error in ERROR probe enabling\n"
				 "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): ";
	EXPECT_EQ(r.err.substr(0, head.size()), head);
}

// print() of a string: dt_print_array() shows a top-level char array of
// printable characters as  string "..."  and ends the line.
TEST(Pipeline, PrintString)
{
	auto r = run("BEGIN { print(\"hi\"); exit(0); }", true);
	EXPECT_EQ(r.out, "string \"hi\"\n\n");
}

// aggpack with encoding=ascii draws buckets with illumos' ASCII ramp.
TEST(Pipeline, AggpackAsciiEncoding)
{
	auto r = run("#pragma D option aggpack\n#pragma D option encoding=ascii\n"
		     "BEGIN { @[\"k\"] = quantize(1); @[\"k\"] = quantize(8); exit(0); }",
		     true);
	EXPECT_NE(r.out.find(" 0 : x  x : 16   | 2\n"), std::string::npos) << r.out;
}

// The DTrace test suite's printf/tst.basics.d (without its %a line, which
// needs a kernel symbol) and its expected output.
TEST(Pipeline, TestSuitePrintfBasics)
{
	auto r = run("#pragma D option quiet\n"
		     "BEGIN\n{\n\ti = (int)'a';\n\tprintf(\"\\n\");\n"
		     "\tprintf(\"%%c = %c\\n\", i);\n"
		     "\tprintf(\"%%d = %d\\n\", i);\n"
		     "\tprintf(\"%%hd = %hd\\n\", (short)i);\n"
		     "\tprintf(\"%%hi = %hi\\n\", (short)i);\n"
		     "\tprintf(\"%%ho = %ho\\n\", (ushort_t)i);\n"
		     "\tprintf(\"%%hu = %hu\\n\", (ushort_t)i);\n"
		     "\tprintf(\"%%hx = %hx\\n\", (ushort_t)i);\n"
		     "\tprintf(\"%%hX = %hX\\n\", (ushort_t)i);\n"
		     "\tprintf(\"%%i = %i\\n\", i);\n"
		     "\tprintf(\"%%lc = %lc\\n\", i);\n"
		     "\tprintf(\"%%ld = %ld\\n\", (long)i);\n"
		     "\tprintf(\"%%li = %li\\n\", (long)i);\n"
		     "\tprintf(\"%%lo = %lo\\n\", (ulong_t)i);\n"
		     "\tprintf(\"%%lu = %lu\\n\", (ulong_t)i);\n"
		     "\tprintf(\"%%lx = %lx\\n\", (ulong_t)i);\n"
		     "\tprintf(\"%%lX = %lX\\n\", (ulong_t)i);\n"
		     "\tprintf(\"%%o = %o\\n\", (uint_t)i);\n"
		     "\tprintf(\"%%p = %p\\n\", (void *)i);\n"
		     "\tprintf(\"%%s = %s\\n\", \"hello\");\n"
		     "\tprintf(\"%%u = %u\\n\", (uint_t)i);\n"
		     "\tprintf(\"%%x = %x\\n\", (uint_t)i);\n"
		     "\tprintf(\"%%X = %X\\n\", (uint_t)i);\n"
		     "\texit(0);\n}\n");
	EXPECT_EQ(r.out, "\n%c = a\n%d = 97\n%hd = 97\n%hi = 97\n%ho = 141\n%hu = 97\n%hx = 61\n"
			 "%hX = 61\n%i = 97\n%lc = a\n%ld = 97\n%li = 97\n%lo = 141\n%lu = 97\n"
			 "%lx = 61\n%lX = 61\n%o = 141\n%p = 61\n%s = hello\n%u = 97\n%x = 61\n"
			 "%X = 61\n\n");
}

// printf/tst.flags.d and its expected output.
TEST(Pipeline, TestSuitePrintfFlags)
{
	auto r = run("#pragma D option quiet\nBEGIN\n{\n\tprintf(\"\\n\");\n"
		     "\tprintf(\"# %#8x\\n\", 0x123);\n\tprintf(\"0 %08x\\n\", 0x123);\n"
		     "\tprintf(\"- %-8x\\n\", 0x123);\n\tprintf(\"+ %+8d\\n\", 123);\n"
		     "\tprintf(\"  % 8d\\n\", 123);\n\texit(0);\n}\n");
	EXPECT_EQ(r.out, "\n#    0x123\n0 00000123\n- 123     \n+     +123\n       123\n\n");
}

// printa/tst.basics.d: every aggregating function through a printa()
// format, and its expected output.
TEST(Pipeline, TestSuitePrintaBasics)
{
	auto r = run("#pragma D option quiet\nBEGIN\n{\n"
		     "\t@a = avg(1);\n\t@b = count();\n\t@c = lquantize(1, 1, 10);\n"
		     "\t@d = max(1);\n\t@e = min(1);\n\t@f = sum(1);\n\t@g = quantize(1);\n"
		     "\tprinta(\"@a = %@u\\n\", @a);\n\tprinta(\"@b = %@u\\n\", @b);\n"
		     "\tprinta(\"@c = %@d\\n\", @c);\n\tprinta(\"@d = %@u\\n\", @d);\n"
		     "\tprinta(\"@e = %@u\\n\", @e);\n\tprinta(\"@f = %@u\\n\", @f);\n"
		     "\tprinta(\"@g = %@d\\n\", @g);\n\texit(0);\n}\n");
	const std::string head =
		"\n           value  ------------- Distribution ------------- count    \n";
	EXPECT_EQ(r.out,
		  "@a = 1\n@b = 1\n@c = " + head +
			  "             < 1 |                                         0        \n"
			  "               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
			  "               2 |                                         0        \n"
			  "\n@d = 1\n@e = 1\n@f = 1\n@g = " +
			  head +
			  "               0 |                                         0        \n"
			  "               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
			  "               2 |                                         0        \n"
			  "\n\n");
}

} // namespace
