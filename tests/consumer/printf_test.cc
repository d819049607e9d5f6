// SPDX-License-Identifier: MIT
//
// printf_test.cc - printf(), system(), freopen() and ftruncate() over
// records built by hand. Expected text: C printf semantics as DTrace passes
// conversions through (illumos dt_printf.c: the value sign-extended by its
// record size, %d of an unsigned value as %u, 8-byte values with "ll",
// "%.0d" printed as "%d", %p as %llx, %Y as "1970 Jan  1 00:00:00", %S
// escaping the whole record up to and including its NUL).
#include "harness.hpp"

#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace {

using namespace dt;
using namespace dt::test;

// A quiet program of one clause with printf-like actions; values are
// written into one firing in order.
struct pf {
	program prog;
	clause_builder cb;
	capture out, err;
	std::vector<std::function<void(firing &)>> writes;

	pf &act(uint16_t kind, const std::string &format)
	{
		cb.add(kind, {}, format);
		return *this;
	}
	template <typename T>
	pf &arg(const value_type &t, T v)
	{
		action &a = cb.c.actions.back();
		a.args.push_back(cb.add_record(t));
		record r = a.args.back();
		writes.push_back([r, v](firing &f) { f.put(r, v); });
		return *this;
	}
	pf &str(const std::string &s, uint32_t size = 32)
	{
		action &a = cb.c.actions.back();
		a.args.push_back(cb.add_record(string_type(size)));
		record r = a.args.back();
		writes.push_back([r, s](firing &f) { f.put_str(r, s); });
		return *this;
	}
	pf &raw(const value_type &t, std::vector<uint8_t> bytes)
	{
		action &a = cb.c.actions.back();
		a.args.push_back(cb.add_record(t));
		record r = a.args.back();
		writes.push_back([r, bytes](firing &f) { f.put_bytes(r, bytes); });
		return *this;
	}
	std::string run(bool quiet = true)
	{
		prog.clauses.push_back(cb.done());
		consumer_settings s;
		s.out = out.file();
		s.err = err.file();
		s.quiet = quiet;
		consumer c(prog, {begin_probe()}, s);
		firing f(prog.clauses[0], 1);
		for (auto &w : writes)
			w(f);
		c.records(f.b, 0);
		return out.text();
	}
};

TEST(Printf, IntegerConversions)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "%d %i %u %x %X %o\n")
		.arg(int_type(4), int32_t{-5})
		.arg(int_type(4), int32_t{-5})
		.arg(int_type(4), int32_t{-5})
		.arg(int_type(4), int32_t{255})
		.arg(int_type(4), int32_t{255})
		.arg(int_type(4), int32_t{8});
	EXPECT_EQ(p.run(), "-5 -5 4294967291 ff FF 10\n");
}

TEST(Printf, SignAndSizeFollowTheRecord)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "%d %d %d %d %d %u\n")
		.arg(int_type(8, false), uint64_t{1} << 63)
		.arg(int_type(8), int64_t{-1})
		.arg(int_type(1, false), uint8_t{255})
		.arg(int_type(1), int8_t{-1})
		.arg(int_type(2), int16_t{-300})
		.arg(int_type(8), int64_t{-1});
	EXPECT_EQ(p.run(), "9223372036854775808 -1 255 -1 -300 18446744073709551615\n");
}

TEST(Printf, FlagsWidthsPrecision)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "%5d|%-5d|%05d|%+d|% d|%#x|%#o|%.3d|%.0d|%?d|\n")
		.arg(int_type(4), 42)
		.arg(int_type(4), 42)
		.arg(int_type(4), 42)
		.arg(int_type(4), 42)
		.arg(int_type(4), 42)
		.arg(int_type(4), 255)
		.arg(int_type(4), 8)
		.arg(int_type(4), 5)
		.arg(int_type(4), 0)
		.arg(int_type(4), 1);
	EXPECT_EQ(p.run(), "   42|42   |00042|+42| 42|0xff|010|005|0|               1|\n");
}

TEST(Printf, DynamicWidthAndPrecision)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "[%*d][%*d][%.*s][%-*s]\n")
		.arg(int_type(4), 6)
		.arg(int_type(4), 42)
		.arg(int_type(4), -6)
		.arg(int_type(4), 42)
		.arg(int_type(4), 2)
		.str("abcdef")
		.arg(int_type(8), int64_t{5})
		.str("x");
	EXPECT_EQ(p.run(), "[    42][42    ][ab][x    ]\n");
}

TEST(Printf, StringsAndCharacters)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "%10s|%-10s|%.3s|%c%c|%S|%C\n")
		.str("abc")
		.str("abc")
		.str("abcdef")
		.arg(int_type(1), 'O')
		.arg(int_type(4), 'K')
		.str("a\tb\"c\x01")
		.arg(int_type(1), '\n');
	EXPECT_EQ(p.run(), "       abc|abc       |abc|OK|a\\tb\\\"c\\001\\0|\\n\n");
}

TEST(Printf, PercentAndTextOnly)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "100%% done\n");
	p.act(DTRACEACT_PRINTF, "%d%%\n").arg(int_type(4), 7);
	EXPECT_EQ(p.run(), "100% done\n7%\n");
}

TEST(Printf, LengthModifiers)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "%lld %llu %llx %ld %lu %hd %hu %hx\n")
		.arg(int_type(8), int64_t{-2})
		.arg(int_type(8, false), uint64_t{18446744073709551615ULL})
		.arg(int_type(8), int64_t{0xdeadbeef})
		.arg(int_type(8), int64_t{-3})
		.arg(int_type(8, false), uint64_t{3})
		.arg(int_type(2), int16_t{-4})
		.arg(int_type(2, false), uint16_t{65535})
		.arg(int_type(2), int16_t{-1});
	EXPECT_EQ(p.run(), "-2 18446744073709551615 deadbeef -3 3 -4 65535 ffff\n");
}

// %p is printed as %llx (illumos: ofmt "x" with the size prefix).
TEST(Printf, PointersAndAddresses)
{
	pf p;
	value_type ptr = int_type(8, false);
	ptr.k = value_type::kind::pointer;
	p.act(DTRACEACT_PRINTF, "%p %a %A\n")
		.arg(ptr, uint64_t{0x1234})
		.arg(ptr, uint64_t{0x10})
		.arg(ptr, uint64_t{0x20});
	EXPECT_EQ(p.run(), "1234 0x10 0x20\n");
}

// mod() records print as module names whatever the conversion
// (illumos pfprint_mod); unknown addresses as hex.
TEST(Printf, ModRecords)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "[%s][%-6s]\n")
		.arg(kind_type(value_type::kind::mod, 8), uint64_t{0x10})
		.arg(kind_type(value_type::kind::mod, 8), uint64_t{0x20});
	EXPECT_EQ(p.run(), "[0x10][0x20  ]\n");
}

TEST(Printf, FloatingPoint)
{
	pf p;
	value_type dbl = int_type(8);
	p.act(DTRACEACT_PRINTF, "%.2f %e %g %E\n")
		.arg(dbl, 3.14159)
		.arg(dbl, 1234.5)
		.arg(dbl, 0.0001)
		.arg(dbl, 1234.5);
	EXPECT_EQ(p.run(), "3.14 1.234500e+03 0.0001 1.234500E+03\n");
}

// %Y: "%Y %b %e %T" of the local time (illumos pfprint_time); %T: RFC 822.
TEST(Printf, Times)
{
	setenv("TZ", "UTC", 1);
	tzset();
	pf p;
	p.act(DTRACEACT_PRINTF, "%Y|%Y|%T\n")
		.arg(int_type(8), int64_t{0})
		.arg(int_type(8), int64_t{1795348800} * 1000000000 + 999)
		.arg(int_type(8), int64_t{1795348800} * 1000000000);
	EXPECT_EQ(p.run(), "1970 Jan  1 00:00:00|2026 Nov 22 12:00:00|"
			   "Sun, 22 Nov 2026 12:00:00 UTC\n");
}

TEST(Printf, WideStrings)
{
	pf p;
	std::vector<uint8_t> ws(16, 0);
	const wchar_t text[] = L"hi";
	std::memcpy(ws.data(), text, sizeof text);
	p.act(DTRACEACT_PRINTF, "%ws|%5ls|%wc\n")
		.raw(kind_type(value_type::kind::bytes, 16), ws)
		.raw(kind_type(value_type::kind::bytes, 16), ws)
		.arg(int_type(4), int32_t{'w'});
	EXPECT_EQ(p.run(), "hi|   hi|w\n");
}

// %k: a stack in printf; "%-20k" indents its frames by 20.
TEST(Printf, StackConversion)
{
	pf p;
	std::vector<uint8_t> st(24, 0);
	uint64_t pcs[2] = {0x1000, 0x2000};
	std::memcpy(st.data(), pcs, sizeof pcs);
	p.act(DTRACEACT_PRINTF, "<%k>|<%-4k>")
		.raw(kind_type(value_type::kind::stack, 24), st)
		.raw(kind_type(value_type::kind::stack, 24), st);
	EXPECT_EQ(p.run(), "<\n0x1000\n0x2000\n>|<\n    0x1000\n    0x2000\n>");
}

// Not quiet: printf output follows the probe line, then the newline.
TEST(Printf, AfterTheProbeLine)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "x=%d").arg(int_type(4), 1);
	EXPECT_EQ(p.run(false), "CPU     ID                    FUNCTION:NAME\n"
				"  0      1                           :BEGIN x=1\n");
}

std::string slurp(const std::string &path)
{
	std::ifstream in(path);
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

std::string temp_path(const char *tag)
{
	return "/tmp/dt_consumer_" + std::string(tag) + "_" + std::to_string(getpid());
}

// system(): the formatted command runs through /bin/sh, after output so far
// is flushed.
TEST(Printf, SystemRunsTheCommand)
{
	std::string path = temp_path("system");
	pf p;
	p.act(DTRACEACT_PRINTF, "before\n");
	p.act(DTRACEACT_SYSTEM, "echo %d-%s > " + path).arg(int_type(4), 42).str("x y");
	p.act(DTRACEACT_PRINTF, "after\n");
	EXPECT_EQ(p.run(), "before\nafter\n");
	EXPECT_EQ(slurp(path), "42-x y\n");
	std::remove(path.c_str());
}

// freopen("file") redirects the output; freopen("") restores it.
TEST(Printf, FreopenRedirectsAndRestores)
{
	std::string path = temp_path("freopen");
	std::remove(path.c_str());
	pf p;
	p.act(DTRACEACT_PRINTF, "one\n");
	p.act(DTRACEACT_FREOPEN, "%s").str(path, 128);
	p.act(DTRACEACT_PRINTF, "two\n");
	p.act(DTRACEACT_FREOPEN, "");
	p.act(DTRACEACT_PRINTF, "three\n");
	EXPECT_EQ(p.run(), "one\nthree\n");
	EXPECT_EQ(slurp(path), "two\n");
	std::remove(path.c_str());
}

// A file that cannot be opened: illumos dt_handle_liberr()'s message, and
// the output stays where it was.
TEST(Printf, FreopenFailure)
{
	pf p;
	p.act(DTRACEACT_FREOPEN, "/nonexistent-dir/x");
	p.act(DTRACEACT_PRINTF, "still here\n");
	EXPECT_EQ(p.run(), "still here\n");
	EXPECT_EQ(p.err.text(), "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): "
				"couldn't freopen() \"/nonexistent-dir/x\": No such file or "
				"directory\n");
}

TEST(Printf, FtruncateEmptiesTheOutput)
{
	pf p;
	p.act(DTRACEACT_PRINTF, "discarded\n");
	auto &a = p.cb.add(DTRACEACT_LIBACT);
	a.libact = DT_ACT_FTRUNCATE;
	a.records = false;
	p.act(DTRACEACT_PRINTF, "kept\n");
	EXPECT_EQ(p.run(), "kept\n");
}

} // namespace
