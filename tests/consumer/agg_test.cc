// SPDX-License-Identifier: MIT
//
// agg_test.cc - aggregations: merging deltas, clear/trunc/normalize, the
// default layouts printed at exit and by printa(), printa() formats,
// sorting options. Expected layouts are DTrace's documented ones (Dynamic
// Tracing Guide, "Aggregations"; illumos dt_consume.c: keys "  %-50s" or
// " %16lld", values " %16lld", the quantize table "value  ----
// Distribution ---- count" with one empty bucket either side of the data).
#include "harness.hpp"

#include <gtest/gtest.h>

namespace {

using namespace dt;
using namespace dt::test;

// A row of a quantize table: value, bar of `depth` '@', count.
std::string qrow(const std::string &value, int depth, long long count)
{
	char c[32];
	std::snprintf(c, sizeof c, "%-9lld", count);
	return std::string(16 - value.size(), ' ') + value + " |" + std::string(depth, '@') +
	       std::string(40 - depth, ' ') + " " + c + "\n";
}

const std::string k_qhead =
	"\n           value  ------------- Distribution ------------- count    \n";

// "  key" padded to 50, as string keys print.
std::string skey(const std::string &k)
{
	return "  " + k + std::string(50 - k.size(), ' ');
}

std::string num(long long v)
{
	char c[32];
	std::snprintf(c, sizeof c, " %16lld", v);
	return c;
}

struct agg_fixture : agg_consumer {
	void fire()
	{
		firing f(prog.clauses[0], 1);
		for (auto &w : writes)
			w(f);
		c->records(f.b, 0);
	}
	std::vector<std::function<void(firing &)>> writes;
};

std::vector<uint8_t> str_key(const std::string &s, uint32_t size = 32)
{
	return key_builder().add_str(s, size).k;
}

// @[execname] = count(): sorted by value, printed at exit after a newline.
TEST(Aggregations, CountByStringAtExit)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "", DTRACEAGG_COUNT, {string_type(32)}));
	f.start();
	f.put(1, str_key("bash"), {2});
	f.put(1, str_key("dtrace"), {1});
	f.put(1, str_key("sshd"), {3});
	f.put(1, str_key("bash"), {3}); // a later delta adds
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + skey("dtrace") + num(1) + "\n" + skey("sshd") + num(3) +
					"\n" + skey("bash") + num(5) + "\n");
}

TEST(Aggregations, MinMaxAvgSumStddevMerge)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "mn", DTRACEAGG_MIN, {}));
	f.prog.aggregations.push_back(make_agg(2, "mx", DTRACEAGG_MAX, {}));
	f.prog.aggregations.push_back(make_agg(3, "av", DTRACEAGG_AVG, {}, {}, 2));
	f.prog.aggregations.push_back(make_agg(4, "sm", DTRACEAGG_SUM, {}));
	f.prog.aggregations.push_back(make_agg(5, "sd", DTRACEAGG_STDDEV, {}, {}, 4));
	f.start();
	f.put(1, {}, {5});
	f.put(1, {}, {-7});
	f.put(1, {}, {3});
	f.put(2, {}, {5});
	f.put(2, {}, {9});
	f.put(2, {}, {-1});
	f.put(3, {}, {2, 10}); // values 4 and 6
	f.put(3, {}, {1, 11}); // and 11: 21 / 3
	f.put(4, {}, {-4});
	f.put(4, {}, {10});
	f.put(5, {}, {2, 3, 5, 0});  // 1, 2
	f.put(5, {}, {2, 7, 25, 0}); // 3, 4: count 4, total 10, squares 30
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + num(-7) + "\n" + num(9) + "\n" + num(7) + "\n" + num(6) +
					"\n" + num(1) + "\n");
}

// Integer keys sort as unsigned values of their size and print signed for
// 4 and 8 bytes (illumos test tst.signedkeys.d, aggregation part).
TEST(Aggregations, SignedKeysAggsortkey)
{
	agg_fixture f;
	f.prog.options["aggsortkey"] = "";
	f.prog.aggregations.push_back(make_agg(1, "i8", DTRACEAGG_SUM, {int_type(1)}));
	f.prog.aggregations.push_back(make_agg(2, "i16", DTRACEAGG_SUM, {int_type(2)}));
	f.prog.aggregations.push_back(make_agg(3, "i32", DTRACEAGG_SUM, {int_type(4)}));
	f.prog.aggregations.push_back(make_agg(4, "i64", DTRACEAGG_SUM, {int_type(8)}));
	f.start();
	for (int v = -2; v <= 2; v++) {
		f.put(1, key_builder().add(static_cast<int8_t>(v)).k, {v});
		f.put(2, key_builder().add(static_cast<int16_t>(v)).k, {v});
		f.put(3, key_builder().add(static_cast<int32_t>(v)).k, {v});
		f.put(4, key_builder().add(static_cast<int64_t>(v)).k, {v});
	}
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n"
				"   0                0\n"
				"   1                1\n"
				"   2                2\n"
				" 254               -2\n"
				" 255               -1\n"
				"     0                0\n"
				"     1                1\n"
				"     2                2\n"
				" 65534               -2\n"
				" 65535               -1\n"
				"        0                0\n"
				"        1                1\n"
				"        2                2\n"
				"       -2               -2\n"
				"       -1               -1\n"
				"                0                0\n"
				"                1                1\n"
				"                2                2\n"
				"               -2               -2\n"
				"               -1               -1\n");
}

TEST(Aggregations, AggsortrevReversesValues)
{
	agg_fixture f;
	f.prog.options["aggsortrev"] = "";
	f.prog.aggregations.push_back(make_agg(1, "", DTRACEAGG_COUNT, {string_type(8)}));
	f.start();
	f.put(1, str_key("a", 8), {1});
	f.put(1, str_key("b", 8), {3});
	f.put(1, str_key("c", 8), {2});
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + skey("b") + num(3) + "\n" + skey("c") + num(2) + "\n" +
					skey("a") + num(1) + "\n");
}

// Equal values fall back to the key.
TEST(Aggregations, TiesSortByKey)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "", DTRACEAGG_COUNT, {string_type(8)}));
	f.start();
	f.put(1, str_key("zz", 8), {1});
	f.put(1, str_key("aa", 8), {1});
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + skey("aa") + num(1) + "\n" + skey("zz") + num(1) + "\n");
}

// The Guide's @[execname] = quantize(arg2) with two writes of 1 byte.
TEST(Aggregations, QuantizeTable)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "", DTRACEAGG_QUANTIZE, {string_type(16)}, {},
					       DTRACE_QUANTIZE_NBUCKETS));
	f.start();
	std::vector<int64_t> v(DTRACE_QUANTIZE_NBUCKETS, 0);
	v[DTRACE_QUANTIZE_ZEROBUCKET + 1] = 2; // value 1
	f.put(1, str_key("xterm", 16), v);
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + skey("xterm") + k_qhead + qrow("0", 0, 0) +
					qrow("1", 40, 2) + qrow("2", 0, 0) + "\n");
}

TEST(Aggregations, QuantizeSpreadAndNegative)
{
	agg_fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "", DTRACEAGG_QUANTIZE, {}, {}, DTRACE_QUANTIZE_NBUCKETS));
	f.start();
	std::vector<int64_t> v(DTRACE_QUANTIZE_NBUCKETS, 0);
	const size_t z = DTRACE_QUANTIZE_ZEROBUCKET;
	v[z + 3] = 1; // 4..7
	v[z + 5] = 3; // 16..31
	f.put(1, {}, v);
	f.c->finish();
	// total 4: 1 -> 10 '@', 3 -> 30 '@'
	EXPECT_EQ(f.out.text(), "\n" + k_qhead + qrow("2", 0, 0) + qrow("4", 10, 1) +
					qrow("8", 0, 0) + qrow("16", 30, 3) + qrow("32", 0, 0) +
					"\n");
}

// No data: the buckets around zero.
TEST(Aggregations, QuantizeEmptyAfterClear)
{
	agg_fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "", DTRACEAGG_QUANTIZE, {}, {}, DTRACE_QUANTIZE_NBUCKETS));
	auto &a = f.cb.add(DTRACEACT_LIBACT);
	a.libact = DT_ACT_CLEAR;
	a.aggs = {1};
	a.records = false;
	f.start();
	std::vector<int64_t> v(DTRACE_QUANTIZE_NBUCKETS, 0);
	v[DTRACE_QUANTIZE_ZEROBUCKET + 10] = 7;
	f.put(1, {}, v);
	f.fire();
	f.c->finish();
	EXPECT_EQ(f.out.text(),
		  "\n" + k_qhead + qrow("-1", 0, 0) + qrow("0", 0, 0) + qrow("1", 0, 0) + "\n");
}

// lquantize(x, 0, 10, 2): "< 0" and ">= 10" rows at the ends.
TEST(Aggregations, LquantizeTable)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "", DTRACEAGG_LQUANTIZE, {}, {0, 10, 2}, 7));
	f.start();
	f.put(1, {}, {1, 0, 0, 3, 0, 0, 2});
	f.c->finish();
	// total 6: 1 -> 7, 3 -> 20, 2 -> 13
	EXPECT_EQ(f.out.text(), "\n" + k_qhead + qrow("< 0", 7, 1) + qrow("0", 0, 0) +
					qrow("2", 0, 0) + qrow("4", 20, 3) + qrow("6", 0, 0) +
					qrow("8", 0, 0) + qrow(">= 10", 13, 2) + "\n");
}

TEST(Aggregations, LquantizeTrimsEmptyEnds)
{
	agg_fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "", DTRACEAGG_LQUANTIZE, {int_type(4)}, {0, 100, 10}, 12));
	f.start();
	std::vector<int64_t> v(12, 0);
	v[3] = 4; // 20..29
	v[4] = 4; // 30..39
	f.put(1, key_builder().add(int32_t{195}).k, v);
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n      195" + k_qhead + qrow("10", 0, 0) + qrow("20", 20, 4) +
					qrow("30", 20, 4) + qrow("40", 0, 0) + "\n");
}

// llquantize(x, 10, 0, 2, 10): 1..9, 10..90, 100..900, ">= 1000".
TEST(Aggregations, LlquantizeTable)
{
	agg_fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "", DTRACEAGG_LLQUANTIZE, {}, {10, 0, 2, 10}, 29));
	f.start();
	std::vector<int64_t> v(29, 0);
	v[5] = 1;  // 5
	v[14] = 2; // 50..59
	f.put(1, {}, v);
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + k_qhead + qrow("4", 0, 0) + qrow("5", 13, 1) +
					qrow("6", 0, 0) + qrow("7", 0, 0) + qrow("8", 0, 0) +
					qrow("9", 0, 0) + qrow("10", 0, 0) + qrow("20", 0, 0) +
					qrow("30", 0, 0) + qrow("40", 0, 0) + qrow("50", 27, 2) +
					qrow("60", 0, 0) + "\n");
}

TEST(Aggregations, LlquantizeUnderAndOverflow)
{
	agg_fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "", DTRACEAGG_LLQUANTIZE, {}, {10, 0, 1, 10}, 20));
	f.start();
	std::vector<int64_t> v(20, 0);
	v[0] = 1;  // < 1
	v[19] = 1; // >= 100
	f.put(1, {}, v);
	f.c->finish();
	std::string rows = qrow("< 1", 20, 1);
	for (int i = 1; i <= 9; i++)
		rows += qrow(std::to_string(i), 0, 0);
	for (int i = 10; i <= 90; i += 10)
		rows += qrow(std::to_string(i), 0, 0);
	rows += qrow(">= 100", 20, 1);
	EXPECT_EQ(f.out.text(), "\n" + k_qhead + rows + "\n");
}

// printa(@a) prints "\n" then the rows; at exit only @b is left to print.
TEST(Printa, UnformattedMarksPrinted)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_COUNT, {string_type(8)}));
	f.prog.aggregations.push_back(make_agg(2, "b", DTRACEAGG_SUM, {}));
	auto &a = f.cb.add(DTRACEACT_PRINTA);
	a.aggs = {1};
	a.records = false;
	f.start();
	f.put(1, str_key("x", 8), {4});
	f.put(2, {}, {11});
	f.fire();
	EXPECT_EQ(f.out.text(), "\n" + skey("x") + num(4) + "\n");
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + skey("x") + num(4) + "\n" + "\n" + num(11) + "\n");
}

// An empty aggregation printa()ed is not marked printed (nothing walked).
TEST(Printa, EmptyAggregationStillPrintedAtExit)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_COUNT, {}));
	auto &a = f.cb.add(DTRACEACT_PRINTA);
	a.aggs = {1};
	a.records = false;
	f.start();
	f.fire();
	f.put(1, {}, {2});
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n\n" + num(2) + "\n");
}

TEST(Printa, FormatWithKeysAndValue)
{
	agg_fixture f;
	f.prog.aggregations.push_back(
		make_agg(1, "c", DTRACEAGG_COUNT, {string_type(16), int_type(4)}));
	auto &a = f.cb.add(DTRACEACT_PRINTA, {}, "%-8s %5d %@u\n");
	a.aggs = {1};
	a.records = false;
	f.start();
	f.put(1, key_builder().add_str("bash", 16).add(int32_t{7}).k, {9});
	f.put(1, key_builder().add_str("sh", 16).add(int32_t{-1}).k, {2});
	f.fire();
	f.c->finish();
	EXPECT_EQ(f.out.text(), "sh          -1 2\n"
				"bash         7 9\n"
				"\n");
}

// %@ conversions beyond the number of aggregations repeat the last one
// (illumos tst.manyval.d: printa("%@u %@u ...", @a)).
TEST(Printa, ManyValueConversions)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_COUNT, {}));
	auto &a = f.cb.add(DTRACEACT_PRINTA, {}, "%@u %@u %@u\n");
	a.aggs = {1};
	a.records = false;
	f.start();
	f.put(1, {}, {1});
	f.fire();
	EXPECT_EQ(f.out.text(), "1 1 1\n");
}

TEST(Printa, AvgAndQuantizeThroughFormat)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_AVG, {}, {}, 2));
	f.prog.aggregations.push_back(
		make_agg(2, "q", DTRACEAGG_QUANTIZE, {}, {}, DTRACE_QUANTIZE_NBUCKETS));
	auto &a = f.cb.add(DTRACEACT_PRINTA, {}, "avg=%@d\n");
	a.aggs = {1};
	a.records = false;
	auto &b = f.cb.add(DTRACEACT_PRINTA, {}, "q:%@d");
	b.aggs = {2};
	b.records = false;
	f.start();
	f.put(1, {}, {4, 10});
	std::vector<int64_t> v(DTRACE_QUANTIZE_NBUCKETS, 0);
	v[DTRACE_QUANTIZE_ZEROBUCKET] = 1;
	f.put(2, {}, v);
	f.fire();
	EXPECT_EQ(f.out.text(),
		  "avg=2\nq:" + k_qhead + qrow("-1", 0, 0) + qrow("0", 40, 1) + qrow("1", 0, 0));
}

// printa(@a, @b): one row per key, missing values zero.
TEST(Printa, JoinedAggregations)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_COUNT, {string_type(8)}));
	f.prog.aggregations.push_back(make_agg(2, "b", DTRACEAGG_SUM, {string_type(8)}));
	auto &a = f.cb.add(DTRACEACT_PRINTA, {}, "%s %@d %@d\n");
	a.aggs = {1, 2};
	a.records = false;
	auto &b = f.cb.add(DTRACEACT_PRINTA);
	b.aggs = {1, 2};
	b.records = false;
	f.start();
	f.put(1, str_key("x", 8), {5});
	f.put(1, str_key("y", 8), {1});
	f.put(2, str_key("y", 8), {100});
	f.put(2, str_key("z", 8), {7});
	f.fire();
	EXPECT_EQ(f.out.text(), "z 0 7\ny 1 100\nx 5 0\n\n" + skey("z") + num(0) + num(7) + "\n" +
					skey("y") + num(1) + num(100) + "\n" + skey("x") + num(5) +
					num(0) + "\n");
	f.c->finish();
	EXPECT_EQ(f.out.text().substr(f.out.text().size() - 2), "\n\n");
}

// trunc(@, 2) keeps the two largest; trunc(@, -1) the smallest; trunc(@)
// removes all.
TEST(Aggregations, Trunc)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_SUM, {string_type(8)}));
	f.prog.aggregations.push_back(make_agg(2, "b", DTRACEAGG_SUM, {string_type(8)}));
	f.prog.aggregations.push_back(make_agg(3, "c", DTRACEAGG_SUM, {string_type(8)}));
	auto &t1 = f.cb.add(DTRACEACT_LIBACT, {int_type(8)});
	t1.libact = DT_ACT_TRUNC;
	t1.aggs = {1};
	auto &t2 = f.cb.add(DTRACEACT_LIBACT, {int_type(8)});
	t2.libact = DT_ACT_TRUNC;
	t2.aggs = {2};
	auto &t3 = f.cb.add(DTRACEACT_LIBACT);
	t3.libact = DT_ACT_TRUNC;
	t3.aggs = {3};
	f.start();
	const auto &c = f.prog.clauses[0];
	f.writes.push_back([&c](firing &fi) {
		fi.put(c.actions[0].args[0], int64_t{2}).put(c.actions[1].args[0], int64_t{-1});
	});
	for (uint32_t id = 1; id <= 3; id++) {
		f.put(id, str_key("p", 8), {1});
		f.put(id, str_key("q", 8), {3});
		f.put(id, str_key("r", 8), {2});
	}
	f.fire();
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + skey("r") + num(2) + "\n" + skey("q") + num(3) + "\n" +
					skey("p") + num(1) + "\n");
}

// normalize(@, 10): values print divided; denormalize() undoes it.
TEST(Aggregations, NormalizeAndDenormalize)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_SUM, {}));
	auto &n = f.cb.add(DTRACEACT_LIBACT, {int_type(8)});
	n.libact = DT_ACT_NORMALIZE;
	n.aggs = {1};
	auto &p = f.cb.add(DTRACEACT_PRINTA);
	p.aggs = {1};
	p.records = false;
	auto &d = f.cb.add(DTRACEACT_LIBACT);
	d.libact = DT_ACT_DENORMALIZE;
	d.aggs = {1};
	d.records = false;
	f.start();
	const auto &c = f.prog.clauses[0];
	f.writes.push_back([&c](firing &fi) { fi.put(c.actions[0].args[0], int64_t{10}); });
	f.put(1, {}, {1234});
	f.fire();
	f.put(1, {}, {1});
	auto &pa = f.prog.clauses[0];
	(void)pa;
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + num(123) + "\n" + "\n");
}

// clear() zeroes values and keeps keys.
TEST(Aggregations, ClearKeepsKeys)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_COUNT, {string_type(8)}));
	auto &a = f.cb.add(DTRACEACT_LIBACT);
	a.libact = DT_ACT_CLEAR;
	a.aggs = {1};
	a.records = false;
	f.start();
	f.put(1, str_key("k", 8), {5});
	f.put(1, str_key("j", 8), {6});
	f.fire();
	f.put(1, str_key("j", 8), {2});
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + skey("k") + num(0) + "\n" + skey("j") + num(2) + "\n");
}

// setopt("aggsortrev") at run time changes later output.
TEST(Aggregations, SetoptAtRunTime)
{
	agg_fixture f;
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_COUNT, {string_type(8)}));
	f.cb.add(DTRACEACT_LIBACT, {string_type(16)}).libact = DT_ACT_SETOPT;
	f.start();
	const auto &c = f.prog.clauses[0];
	f.writes.push_back([&c](firing &fi) { fi.put_str(c.actions[0].args[0], "aggsortrev"); });
	f.put(1, str_key("a", 8), {1});
	f.put(1, str_key("b", 8), {2});
	f.fire();
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n" + skey("b") + num(2) + "\n" + skey("a") + num(1) + "\n");
}

// refresh is called before printa and at exit.
TEST(Aggregations, RefreshBeforePrinting)
{
	program prog;
	prog.aggregations.push_back(make_agg(1, "", DTRACEAGG_COUNT, {}));
	capture out;
	consumer *self = nullptr;
	int calls = 0;
	consumer_settings s;
	s.out = out.file();
	s.quiet = true;
	s.refresh = [&]() {
		calls++;
		agg_data d;
		d.aggid = 1;
		d.value = {1};
		self->aggregation(d);
	};
	consumer c(prog, {}, s);
	self = &c;
	c.finish();
	EXPECT_EQ(calls, 1);
	EXPECT_EQ(out.text(), "\n" + num(1) + "\n");
}

// agghist: count()/sum() values as bars, one header per aggregation
// (illumos dt_print_quanthdr(): "key" right-aligned over the keys' packed
// widths, strings 16 wide).
TEST(Aggregations, Agghist)
{
	agg_fixture f;
	f.prog.options["agghist"] = "";
	f.prog.aggregations.push_back(make_agg(1, "", DTRACEAGG_COUNT, {string_type(8)}));
	f.start();
	f.put(1, str_key("b", 8), {3});
	f.put(1, str_key("a", 8), {1});
	f.c->finish();
	std::string head = "\n" + std::string(14, ' ') +
			   "key  ------------- Distribution -------------"
			   " count    \n";
	auto row = [](const std::string &k, int depth, int n) {
		return " " + std::string(16 - k.size(), ' ') + k + " |" + std::string(depth, '@') +
		       std::string(40 - depth, ' ') + " " + std::to_string(n) + "        \n";
	};
	EXPECT_EQ(f.out.text(), "\n" + head + row("a", 10, 1) + row("b", 30, 3));
}

// aggpack: a quantize() on one line, one character per bucket (UTF-8
// blocks U+2581..U+2588 unless TERM is dumb).
TEST(Aggregations, Aggpack)
{
	setenv("TERM", "xterm", 1);
	agg_fixture f;
	f.prog.options["aggpack"] = "";
	f.prog.aggregations.push_back(
		make_agg(1, "", DTRACEAGG_QUANTIZE, {}, {}, DTRACE_QUANTIZE_NBUCKETS));
	f.start();
	std::vector<int64_t> v(DTRACE_QUANTIZE_NBUCKETS, 0);
	v[DTRACE_QUANTIZE_ZEROBUCKET + 1] = 2; // 1
	v[DTRACE_QUANTIZE_ZEROBUCKET + 3] = 1; // 4
	f.put(1, {}, v);
	f.c->finish();
	EXPECT_EQ(f.out.text(), "\n\n  min .-----. max  | count\n"
				"    0 : \xe2\x96\x86 \xe2\x96\x83 : 8    | 3\n");
	setenv("TERM", "dumb", 1);
	agg_fixture g;
	g.prog.options["aggpack"] = "";
	g.prog.aggregations = f.prog.aggregations;
	g.start();
	g.put(1, {}, v);
	g.c->finish();
	EXPECT_EQ(g.out.text(), "\n\n  min .-----. max  | count\n"
				"    0 : x x : 8    | 3\n");
}

// aggsortpos: printa(@a, @b) sorted by @b's values.
TEST(Printa, AggsortposPicksTheSortingAggregation)
{
	agg_fixture f;
	f.prog.options["aggsortpos"] = "1";
	f.prog.aggregations.push_back(make_agg(1, "a", DTRACEAGG_SUM, {string_type(8)}));
	f.prog.aggregations.push_back(make_agg(2, "b", DTRACEAGG_SUM, {string_type(8)}));
	auto &a = f.cb.add(DTRACEACT_PRINTA, {}, "%s %@d %@d\n");
	a.aggs = {1, 2};
	a.records = false;
	f.start();
	f.put(1, str_key("x", 8), {1});
	f.put(2, str_key("x", 8), {30});
	f.put(1, str_key("y", 8), {2});
	f.put(2, str_key("y", 8), {20});
	f.put(1, str_key("z", 8), {3});
	f.put(2, str_key("z", 8), {10});
	f.fire();
	EXPECT_EQ(f.out.text(), "z 3 10\ny 2 20\nx 1 30\n");
}

// aggsortkey with aggsortkeypos=1: the second key sorts first.
TEST(Aggregations, AggsortkeyposRotatesTheKeys)
{
	agg_fixture f;
	f.prog.options["aggsortkey"] = "";
	f.prog.options["aggsortkeypos"] = "1";
	f.prog.aggregations.push_back(
		make_agg(1, "", DTRACEAGG_COUNT, {int_type(4), string_type(8)}));
	f.start();
	f.put(1, key_builder().add(int32_t{1}).add_str("b", 8).k, {1});
	f.put(1, key_builder().add(int32_t{2}).add_str("a", 8).k, {1});
	f.put(1, key_builder().add(int32_t{3}).add_str("a", 8).k, {1});
	f.c->finish();
	auto row = [](int k, const std::string &s) {
		char b[16];
		std::snprintf(b, sizeof b, " %8d", k);
		return std::string(b) + skey(s) + num(1) + "\n";
	};
	EXPECT_EQ(f.out.text(), "\n" + row(2, "a") + row(3, "a") + row(1, "b"));
}

} // namespace
