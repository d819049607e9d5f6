// SPDX-License-Identifier: MIT
//
// translate_aggs_test.cc - aggregations of translated programs: each
// aggregating function's words in its per-CPU map after known values
// (compared with core/dif/dif_agg.h, the arithmetic every engine shares), string and
// integer keys; 100 clauses each with a quantize() in one program load;
// explain_verifier() names the clause of a rejected program.
#include "translate_support.hpp"

extern "C" {
#include "dif_agg.h"
}

#include <gtest/gtest.h>

#include <climits>
#include <iostream>

namespace {

using namespace dt;
using namespace dt::test::bpft;

uint32_t nparams(const aggregation &ag)
{
	return static_cast<uint32_t>(ag.params.size());
}

std::vector<int64_t> initial_value(const aggregation &ag)
{
	std::vector<int64_t> v(ag.nwords);
	dif_agg_init(ag.func, v.data(), ag.nwords);
	return v;
}

#define SKIP_WITHOUT_BPF()                                             \
	do {                                                           \
		std::string why = bpf_unusable();                      \
		if (!why.empty())                                      \
			GTEST_SKIP() << "needs bpf() (root): " << why; \
	} while (0)

// @a = func(arg0 [, arg1]) keyed by nothing; params as given.
program agg_program(uint16_t func, std::vector<int64_t> params, bool incr = false)
{
	program p;
	aggregation ag;
	ag.id = 1;
	ag.name = "a";
	ag.func = func;
	ag.params = std::move(params);
	ag.nwords = dif_agg_nwords(func, ag.params.data(), nparams(ag));
	p.aggregations.push_back(ag);
	clause c;
	c.line = 1;
	action a;
	a.kind = func;
	a.aggid = 1;
	a.args.push_back(make_record(
		make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1), DIF_INSTR_RET(1)}), 0, 0));
	if (incr)
		a.args.push_back(make_record(
			make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG1, 1), DIF_INSTR_RET(1)}),
			0, 0));
	c.actions.push_back(a);
	p.clauses.push_back(c);
	return p;
}

struct agg_case {
	const char *name;
	uint16_t func;
	std::vector<int64_t> params;
	bool incr;
};

class bpf_translate_agg : public ::testing::TestWithParam<agg_case> {};

TEST_P(bpf_translate_agg, words_match_the_user_engine)
{
	SKIP_WITHOUT_BPF();
	const agg_case &ac = GetParam();
	harness h;
	h.prog = agg_program(ac.func, ac.params, ac.incr);
	ASSERT_TRUE(h.build(h.spec_all(gate::probe, 2))) << h.error << "\n" << h.log_tail();
	h.set_activity(DT_BPF_ACTIVE);
	const aggregation &ag = h.prog.aggregations[0];
	std::vector<int64_t> want = initial_value(ag);
	const int64_t vals[] = {5, -3, 0, 1000, 7, 123456789, -1, INT64_MAX / 3, 42, 1, 1, 64};
	int64_t k = 1;
	for (int64_t v : vals) {
		ASSERT_TRUE(h.run({static_cast<uint64_t>(v), static_cast<uint64_t>(k)}, 2));
		dif_agg_apply(ag.func, ag.params.data(), nparams(ag), want.data(), ag.nwords, v,
			      ac.incr ? k : 1);
		k++;
	}
	auto got = h.agg(1);
	ASSERT_EQ(got.size(), 1u);
	EXPECT_TRUE(got.begin()->first.empty()) << "no keys: the {aggid, generation} prefix alone";
	// The program ran on one CPU: that CPU's words are dif_agg.h's,
	// every other CPU's entry is untouched (absent or initial).
	// (min and max words are stored XOR-ed with a bias, 0 meaning no
	// value: dt_bpf_abi.h.)
	std::vector<int64_t> mine;
	for (auto w : got.begin()->second) {
		if ((ac.func == DTRACEAGG_MIN || ac.func == DTRACEAGG_MAX) && !w.empty() &&
		    w[0] != 0)
			w[0] = static_cast<int64_t>(static_cast<uint64_t>(w[0]) ^
						    (ac.func == DTRACEAGG_MIN
							     ? DT_BPF_AGG_MIN_BIAS
							     : DT_BPF_AGG_MAX_BIAS));
		if (w != initial_value(ag) && w != std::vector<int64_t>(w.size(), 0))
			mine = w;
	}
	EXPECT_EQ(mine, want);
}

INSTANTIATE_TEST_SUITE_P(
	funcs, bpf_translate_agg,
	::testing::Values(
		agg_case{"count", DTRACEAGG_COUNT, {}, false},
		agg_case{"sum", DTRACEAGG_SUM, {}, false},
		agg_case{"min", DTRACEAGG_MIN, {}, false},
		agg_case{"max", DTRACEAGG_MAX, {}, false},
		agg_case{"avg", DTRACEAGG_AVG, {}, false},
		agg_case{"stddev", DTRACEAGG_STDDEV, {}, false},
		agg_case{"quantize", DTRACEAGG_QUANTIZE, {}, false},
		agg_case{"quantize_incr", DTRACEAGG_QUANTIZE, {}, true},
		agg_case{"lquantize", DTRACEAGG_LQUANTIZE, {0, 100, 10}, false},
		agg_case{"lquantize_negative_base", DTRACEAGG_LQUANTIZE, {-10, 10, 2}, true},
		agg_case{"llquantize", DTRACEAGG_LLQUANTIZE, {10, 0, 6, 20}, false}),
	[](const ::testing::TestParamInfo<agg_case> &i) { return std::string(i.param.name); });

// @[execname-like string, arg0] = count(): keys at key_offsets, string
// NUL-padded to its size.
TEST(bpf_translate, aggregation_keys)
{
	SKIP_WITHOUT_BPF();
	harness h;
	aggregation ag;
	ag.id = 1;
	ag.name = "k";
	ag.func = DTRACEAGG_COUNT;
	value_type s;
	s.k = value_type::kind::string;
	s.size = 16;
	value_type n;
	n.size = 4;
	ag.keys = {s, n};
	ag.key_offsets = {0, 16};
	ag.key_size = 24;
	h.prog.aggregations.push_back(ag);
	clause c;
	c.line = 1;
	action a;
	a.kind = DTRACEAGG_COUNT;
	a.aggid = 1;
	a.keys.push_back(make_record(
		make_difo({DIF_INSTR_SETS(0, 1), DIF_INSTR_RET(1)}, {}, std::string("ab\0", 3)), 0,
		16, value_type::kind::string));
	a.keys.push_back(make_record(
		make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1), DIF_INSTR_RET(1)}), 0, 4));
	c.actions.push_back(a);
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.build(h.spec_all(gate::probe, 1))) << h.error << "\n" << h.log_tail();
	h.set_activity(DT_BPF_ACTIVE);
	for (uint64_t v : {1, 2, 1, 1})
		ASSERT_TRUE(h.run({v | 0xffffffff00000000ull}, 1));
	auto got = h.agg(1);
	ASSERT_EQ(got.size(), 2u);
	std::map<uint32_t, int64_t> counts;
	for (auto &[key, per] : got) {
		ASSERT_EQ(key.size(), 24u);
		EXPECT_EQ(std::string(reinterpret_cast<const char *>(key.data())), "ab");
		for (size_t i = 2; i < 16; i++)
			EXPECT_EQ(key[i], 0);
		uint32_t k;
		std::memcpy(&k, key.data() + 16, 4);
		for (size_t i = 20; i < 24; i++)
			EXPECT_EQ(key[i], 0) << "key padding";
		counts[k] = summed(per)[0];
	}
	EXPECT_EQ(counts[1], 3);
	EXPECT_EQ(counts[2], 1);
}

// The Oracle port broke on this: 100 clauses, each with a quantize()
// (here @q[i] = quantize(arg0 + i), i = the clause), in one program.
TEST(bpf_translate, hundred_quantize_clauses_load)
{
	SKIP_WITHOUT_BPF();
	harness h;
	aggregation ag;
	ag.id = 1;
	ag.name = "q";
	ag.func = DTRACEAGG_QUANTIZE;
	ag.nwords = DTRACE_QUANTIZE_NBUCKETS;
	value_type kt;
	kt.size = 8;
	ag.keys = {kt};
	ag.key_offsets = {0};
	ag.key_size = 8;
	h.prog.aggregations.push_back(ag);
	for (uint32_t i = 0; i < 100; i++) {
		clause c;
		c.line = i + 1;
		action a;
		a.kind = DTRACEAGG_QUANTIZE;
		a.aggid = 1;
		a.keys.push_back(make_record(
			make_difo({DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)}, {i}), 0, 8));
		a.args.push_back(make_record(
			make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1),
				   DIF_INSTR_SETX(0, 2), DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 1),
				   DIF_INSTR_RET(1)},
				  {i * 1000}),
			0, 0));
		c.actions.push_back(a);
		h.prog.clauses.push_back(c);
	}
	h.nepids = 101;
	ASSERT_TRUE(h.build(h.spec_all(gate::probe, 1))) << h.error << "\n" << h.log_tail();
	std::cout << "100 quantize clauses: " << h.tr.insns.size() << " instructions\n";
	h.set_activity(DT_BPF_ACTIVE);
	ASSERT_TRUE(h.run({5}, 1));
	ASSERT_TRUE(h.run({5}, 1));
	auto got = h.agg(1);
	ASSERT_EQ(got.size(), 100u);
	for (auto &[key, per] : got) {
		uint64_t i;
		std::memcpy(&i, key.data(), 8);
		auto words = summed(per);
		EXPECT_EQ(words[dif_agg_quantize_bucket(static_cast<int64_t>(5 + i * 1000))], 2)
			<< "clause " << i;
	}
}

// 100 clauses each with a quantize() of its own aggregation (@q0..@q99):
// more aggregations than a program may use maps, so they share maps by
// shape (layout::agg_key_prefixed), each key prefixed by its id.
TEST(bpf_translate, hundred_quantize_aggregations_load)
{
	SKIP_WITHOUT_BPF();
	harness h;
	for (uint32_t i = 0; i < 100; i++) {
		aggregation ag;
		ag.id = i + 1;
		ag.name = "q" + std::to_string(i);
		ag.func = DTRACEAGG_QUANTIZE;
		ag.nwords = DTRACE_QUANTIZE_NBUCKETS;
		h.prog.aggregations.push_back(ag);
		clause c;
		c.line = i + 1;
		action a;
		a.kind = DTRACEAGG_QUANTIZE;
		a.aggid = i + 1;
		a.args.push_back(make_record(
			make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1),
				   DIF_INSTR_SETX(0, 2), DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 1),
				   DIF_INSTR_RET(1)},
				  {i * 100}),
			0, 0));
		c.actions.push_back(a);
		h.prog.clauses.push_back(c);
	}
	h.nepids = 101;
	ASSERT_TRUE(h.build(h.spec_all(gate::probe, 1))) << h.error << "\n" << h.log_tail();
	EXPECT_TRUE(h.lay.agg_key_prefixed);
	h.set_activity(DT_BPF_ACTIVE);
	ASSERT_TRUE(h.run({3}, 1));
	for (uint32_t i = 0; i < 100; i++) {
		auto got = h.agg(i + 1);
		ASSERT_EQ(got.size(), 1u) << "@q" << i;
		EXPECT_EQ(got.begin()->first.size(), 0u) << "no key after the prefix";
		auto words = summed(got.begin()->second);
		EXPECT_EQ(words[dif_agg_quantize_bucket(3 + i * 100)], 1) << "@q" << i;
	}
}

// A program the verifier rejects: its message names the clause and line.
TEST(bpf_translate, explain_verifier_names_the_clause)
{
	SKIP_WITHOUT_BPF();
	harness h;
	for (uint32_t i = 0; i < 3; i++) {
		clause c;
		c.line = 10 + i;
		c.desc_text = "syscall::read:entry";
		if (i == 1)
			c.desc_text = "syscall::write:entry";
		action a;
		a.kind = DTRACEACT_DIFEXPR;
		a.args.push_back(make_record(
			make_difo({DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)}, {i}), 16, 8));
		c.actions.push_back(a);
		c.size = 24;
		h.prog.clauses.push_back(c);
	}
	h.lay = plan(h.prog, h.opts);
	h.maps = create_maps(h.lay, 8, 1 << 16);
	h.tr = translate(h.prog, h.lay, h.spec_all(), h.maps.fds());
	// Break the second clause: load through r4, which holds no pointer
	// (the first clause's end leaves it 0).
	ASSERT_GE(h.tr.clause_starts.size(), 2u);
	ASSERT_EQ(h.tr.clause_starts[1].second, 1u);
	uint32_t at = h.tr.clause_starts[1].first;
	h.tr.insns[at] = bpf_insn{BPF_LDX | BPF_DW | BPF_MEM, BPF_REG_1, BPF_REG_4, 0, 0};
	ASSERT_FALSE(h.load());
	EXPECT_FALSE(h.log.empty());
	EXPECT_EQ(h.error, "bpf engine: the kernel's verifier rejected the clause at line 11 "
			   "(syscall::write:entry): R4 invalid mem access 'scalar'");
	EXPECT_EQ(h.error.find('\n'), std::string::npos) << "one line, never the log";
}

} // namespace
