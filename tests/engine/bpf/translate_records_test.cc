// SPDX-License-Identifier: MIT
//
// translate_records_test.cc - translated programs on this kernel: the
// firing's record layout (integers, strings), a fault's sample (load from
// address 0), ERROR clauses, globals, predicates, exit().
#include "translate_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace dt;
using namespace dt::test::bpft;

#define SKIP_WITHOUT_BPF()                                             \
	do {                                                           \
		std::string why = bpf_unusable();                      \
		if (!why.empty())                                      \
			GTEST_SKIP() << "needs bpf() (root): " << why; \
	} while (0)

#define SETX(i, d) DIF_INSTR_SETX(i, d)
#define SETS(s, d) DIF_INSTR_SETS(s, d)
#define RET(d) DIF_INSTR_RET(d)

template <typename T>
T at(const std::vector<uint8_t> &b, size_t off)
{
	T v{};
	std::memcpy(&v, b.data() + off, sizeof(T));
	return v;
}

// One firing sample: dt_bpf_sample, then the firing.
struct firing {
	uint32_t kind = 0, epid = 0;
	std::vector<uint8_t> bytes; // from the dtrace_rechdr_t
};

std::vector<firing> firings(harness &h)
{
	std::vector<firing> out;
	for (auto &s : h.samples()) {
		firing f;
		f.kind = at<uint32_t>(s, 4);
		f.bytes.assign(s.begin() + 8, s.end());
		if (f.bytes.size() >= 4)
			f.epid = at<uint32_t>(f.bytes, 0);
		out.push_back(f);
	}
	return out;
}

TEST(bpf_translate, records_integers_and_strings)
{
	SKIP_WITHOUT_BPF();
	harness h;
	clause c;
	c.line = 1;
	c.desc_text = "BEGIN";
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	a.args.push_back(
		make_record(make_difo({SETX(0, 1), RET(1)}, {0x1122334455667788ull}), 16, 8));
	c.actions.push_back(a);
	action b;
	b.kind = DTRACEACT_DIFEXPR;
	b.args.push_back(make_record(make_difo({SETX(0, 1), RET(1)}, {0xabcd}), 24, 2));
	c.actions.push_back(b);
	action s;
	s.kind = DTRACEACT_DIFEXPR;
	s.args.push_back(make_record(make_difo({SETS(0, 1), RET(1)}, {}, std::string("hello\0", 6)),
				     26, 256, value_type::kind::string));
	c.actions.push_back(s);
	c.size = (26 + 256 + 7) & ~7u;
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.build(h.spec_all())) << h.error << "\n" << h.log_tail();
	ASSERT_TRUE(h.run({}));
	auto f = firings(h);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(f[0].kind, static_cast<uint32_t>(DT_BPF_SAMPLE_FIRING));
	ASSERT_EQ(f[0].bytes.size(), c.size);
	EXPECT_EQ(f[0].epid, 1u);
	EXPECT_NE(at<uint32_t>(f[0].bytes, 4) | at<uint32_t>(f[0].bytes, 8), 0u) << "timestamp";
	EXPECT_EQ(at<uint32_t>(f[0].bytes, 12), 0u) << "padding after the header";
	EXPECT_EQ(at<uint64_t>(f[0].bytes, 16), 0x1122334455667788ull);
	EXPECT_EQ(at<uint16_t>(f[0].bytes, 24), 0xabcd);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(f[0].bytes.data() + 26)), "hello");
	for (size_t i = 26 + 5; i < 26 + 256; i++)
		ASSERT_EQ(f[0].bytes[i], 0) << "string padding at " << i;
	// BEGIN's gate: the program made tracing ACTIVE and runs no more.
	EXPECT_EQ(activity(h.maps), static_cast<uint64_t>(DT_BPF_ACTIVE));
	ASSERT_TRUE(h.run({}));
	EXPECT_TRUE(firings(h).empty());
}

TEST(bpf_translate, predicate_and_arguments)
{
	SKIP_WITHOUT_BPF();
	harness h;
	clause c;
	c.line = 2;
	// arg1 == 7
	c.predicate = make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG1, 1), SETX(0, 2),
				 DIF_INSTR_CMP(DIF_OP_CMP, 1, 2), DIF_INSTR_BRANCH(DIF_OP_BNE, 6),
				 SETX(1, 3), RET(3), RET(0)},
				{7, 1});
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	a.args.push_back(make_record(
		make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1), RET(1)}), 16, 8));
	c.actions.push_back(a);
	c.size = 24;
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.build(h.spec_all(gate::probe, 2))) << h.error << "\n" << h.log_tail();
	h.set_activity(DT_BPF_ACTIVE);
	ASSERT_TRUE(h.run({11, 6}, 2));
	ASSERT_TRUE(h.run({12, 7}, 2));
	ASSERT_TRUE(h.run({13, 8}, 2));
	auto f = firings(h);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(at<uint64_t>(f[0].bytes, 16), 12u);
	// Not ACTIVE: nothing runs.
	h.set_activity(DT_BPF_INACTIVE);
	ASSERT_TRUE(h.run({14, 7}, 2));
	EXPECT_TRUE(firings(h).empty());
}

TEST(bpf_translate, globals_persist_across_firings)
{
	SKIP_WITHOUT_BPF();
	harness h;
	variable g;
	g.name = "n";
	g.id = 0x500;
	g.type.dtdt_size = 8;
	h.prog.variables.push_back(g);
	dtrace_difv_t v{};
	v.dtdv_id = 0x500;
	v.dtdv_kind = DIFV_KIND_SCALAR;
	v.dtdv_scope = DIFV_SCOPE_GLOBAL;
	v.dtdv_type.dtdt_size = 8;
	clause c;
	c.line = 3;
	action a; // n = n + 5 (no record)
	a.kind = DTRACEACT_DIFEXPR;
	a.records = false;
	a.args.push_back(make_record(make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, 0x500, 1), SETX(0, 2),
						DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 1),
						DIF_INSTR_STV(DIF_OP_STGS, 0x500, 1), RET(1)},
					       {5}, {}, {v}),
				     0, 0));
	c.actions.push_back(a);
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.build(h.spec_all(gate::probe))) << h.error << "\n" << h.log_tail();
	h.set_activity(DT_BPF_ACTIVE);
	for (int i = 0; i < 3; i++)
		ASSERT_TRUE(h.run({}));
	auto gl = h.globals();
	EXPECT_EQ(at<uint64_t>(gl, 0), 15u);
	// A clause whose actions store no data writes no record (illumos
	// dtrace_ecb_resize(); clause::records_firing()).
	EXPECT_EQ(firings(h).size(), 0u);
}

// trace(*(long *)0): the firing is discarded and a fault sample says
// EPID, action 1, offset 4 (the ldx), BADADDR, address 0.
TEST(bpf_translate, fault_from_address_zero)
{
	SKIP_WITHOUT_BPF();
	harness h;
	clause c;
	c.line = 4;
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	a.args.push_back(make_record(
		make_difo({SETX(0, 1), DIF_INSTR_LOAD(DIF_OP_LDX, 1, 2), RET(2)}, {0}), 16, 8));
	c.actions.push_back(a);
	c.size = 24;
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.build(h.spec_all())) << h.error << "\n" << h.log_tail();
	ASSERT_TRUE(h.run({}));
	auto s = h.samples();
	ASSERT_EQ(s.size(), 1u);
	EXPECT_EQ(at<uint32_t>(s[0], 4), static_cast<uint32_t>(DT_BPF_SAMPLE_FAULT));
	ASSERT_GE(s[0].size(), 8 + sizeof(dt_bpf_fault_sample));
	auto fs = at<dt_bpf_fault_sample>(s[0], 8);
	EXPECT_EQ(fs.epid, 1u);
	EXPECT_EQ(fs.action, 1u);
	EXPECT_EQ(fs.offset, 4);
	EXPECT_EQ(fs.code, static_cast<uint64_t>(DTRACEFLT_BADADDR));
	EXPECT_EQ(fs.illval, 0u);
}

// A fault runs dtrace:::ERROR's clauses first, with arg1..arg5, then the
// fault sample; the probe's next clause still runs.
TEST(bpf_translate, fault_runs_error_clauses)
{
	SKIP_WITHOUT_BPF();
	harness h;
	clause bad;
	bad.line = 5;
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	a.args.push_back(make_record(
		make_difo({SETX(0, 1), SETX(1, 2), DIF_INSTR_FMT(DIF_OP_UDIV, 1, 2, 3), RET(3)},
			  {1, 0}),
		16, 8));
	bad.actions.push_back(a);
	bad.size = 24;
	h.prog.clauses.push_back(bad);
	clause err; // ERROR { trace(arg1); trace(arg2); trace(arg3); trace(arg4); }
	err.line = 6;
	for (uint32_t k = 0; k < 4; k++) {
		action t;
		t.kind = DTRACEACT_DIFEXPR;
		t.args.push_back(make_record(
			make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG1 + k, 1), RET(1)}),
			16 + 8 * k, 8));
		err.actions.push_back(t);
	}
	err.size = 48;
	h.prog.clauses.push_back(err);
	clause after; // trace(arg0)
	after.line = 7;
	action t;
	t.kind = DTRACEACT_DIFEXPR;
	t.args.push_back(make_record(
		make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1), RET(1)}), 16, 8));
	after.actions.push_back(t);
	after.size = 24;
	h.prog.clauses.push_back(after);

	probe_spec spec;
	spec.when = gate::probe;
	spec.raw_nargs = 1;
	spec.ecbs = {{0, 1, -1, 0}, {2, 3, -1, 0}};
	spec.errors = {{1, 2, -1, 0}};
	ASSERT_TRUE(h.build(spec)) << h.error << "\n" << h.log_tail();
	h.set_activity(DT_BPF_ACTIVE);
	ASSERT_TRUE(h.run({77}, 1));
	auto s = h.samples();
	ASSERT_EQ(s.size(), 3u);
	// ERROR's firing: arg1 = EPID 1, arg2 = action 1, arg3 = offset 8, arg4 = DIVZERO
	EXPECT_EQ(at<uint32_t>(s[0], 4), static_cast<uint32_t>(DT_BPF_SAMPLE_FIRING));
	EXPECT_EQ(at<uint32_t>(s[0], 8), 2u);
	EXPECT_EQ(at<uint64_t>(s[0], 8 + 16), 1u);
	EXPECT_EQ(at<uint64_t>(s[0], 8 + 24), 1u);
	EXPECT_EQ(at<uint64_t>(s[0], 8 + 32), 8u);
	EXPECT_EQ(at<uint64_t>(s[0], 8 + 40), static_cast<uint64_t>(DTRACEFLT_DIVZERO));
	// then the fault
	EXPECT_EQ(at<uint32_t>(s[1], 4), static_cast<uint32_t>(DT_BPF_SAMPLE_FAULT));
	auto fs = at<dt_bpf_fault_sample>(s[1], 8);
	EXPECT_EQ(fs.epid, 1u);
	EXPECT_EQ(fs.code, static_cast<uint64_t>(DTRACEFLT_DIVZERO));
	EXPECT_EQ(fs.offset, 8);
	// then the next clause, with the probe's own arg0
	EXPECT_EQ(at<uint32_t>(s[2], 8), 3u);
	EXPECT_EQ(at<uint64_t>(s[2], 8 + 16), 77u);
}

TEST(bpf_translate, exit_makes_tracing_drain)
{
	SKIP_WITHOUT_BPF();
	harness h;
	clause c;
	c.line = 8;
	action a;
	a.kind = DTRACEACT_EXIT;
	a.args.push_back(make_record(make_difo({SETX(0, 1), RET(1)}, {3}), 16, 4));
	c.actions.push_back(a);
	c.size = 24;
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.build(h.spec_all())) << h.error << "\n" << h.log_tail();
	ASSERT_TRUE(h.run({}));
	auto f = firings(h);
	ASSERT_EQ(f.size(), 1u);
	EXPECT_EQ(at<uint32_t>(f[0].bytes, 16), 3u);
	EXPECT_EQ(activity(h.maps), static_cast<uint64_t>(DT_BPF_DRAINING))
		<< "exit() in BEGIN: DRAINING, not ACTIVE";
}

TEST(bpf_translate, unsupported_subroutine_is_refused_with_its_line)
{
	harness h;
	clause c;
	c.line = 9;
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	a.line = 10;
	a.args.push_back(make_record(
		make_difo({DIF_INSTR_FLUSHTS, DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 0),
			   DIF_INSTR_CALL(DIF_SUBR_MSGSIZE, 1), RET(1)}),
		16, 8));
	c.actions.push_back(a);
	c.size = 24;
	h.prog.clauses.push_back(c);
	h.lay = plan(h.prog, h.opts);
	map_fds fds; // never used: refused before any map is referenced
	try {
		(void)translate(h.prog, h.lay, h.spec_all(), fds);
		FAIL() << "translated";
	} catch (const translate_error &e) {
		EXPECT_STREQ(e.what(), "bpf engine: line 10: subroutine msgsize() is not "
				       "supported by the bpf engine yet");
	}
}

} // namespace

namespace {

// At the largest strsize: a string through a global, a clause-local and a
// thread-local, recorded (strsize bytes) each time.
TEST(bpf_translate, strings_at_the_largest_strsize)
{
	SKIP_WITHOUT_BPF();
	harness h;
	h.opts.strsize = DT_BPF_STRSIZE_MAX;
	const uint32_t ss = DT_BPF_STRSIZE_MAX;
	const uint8_t scopes[] = {DIFV_SCOPE_GLOBAL, DIFV_SCOPE_LOCAL, DIFV_SCOPE_THREAD};
	const uint32_t st[] = {DIF_OP_STGS, DIF_OP_STLS, DIF_OP_STTS};
	const uint32_t ld[] = {DIF_OP_LDGS, DIF_OP_LDLS, DIF_OP_LDTS};
	std::string text(700, 'x');
	text += "end";
	clause c;
	c.line = 1;
	for (uint32_t k = 0; k < 3; k++) {
		variable v;
		v.name = "s" + std::to_string(k);
		v.id = 0x500 + k;
		v.scope = scopes[k];
		v.type.dtdt_kind = DIF_TYPE_STRING;
		h.prog.variables.push_back(v);
		dtrace_difv_t dv{};
		dv.dtdv_id = v.id;
		dv.dtdv_kind = DIFV_KIND_SCALAR;
		dv.dtdv_scope = scopes[k];
		dv.dtdv_type.dtdt_kind = DIF_TYPE_STRING;
		action a; // trace(var = "xxx...end")
		a.kind = DTRACEACT_DIFEXPR;
		a.args.push_back(
			make_record(make_difo({DIF_INSTR_SETS(0, 1), DIF_INSTR_STV(st[k], v.id, 1),
					       DIF_INSTR_LDV(ld[k], v.id, 2), DIF_INSTR_RET(2)},
					      {}, text + std::string(1, '\0'), {dv}),
				    16 + k * ss, ss, value_type::kind::string));
		c.actions.push_back(a);
	}
	c.size = 16 + 3 * ss;
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.build(h.spec_all())) << h.error << "\n" << h.log_tail();
	ASSERT_TRUE(h.run({}));
	auto f = firings(h);
	ASSERT_EQ(f.size(), 1u);
	ASSERT_EQ(f[0].bytes.size(), c.size);
	for (uint32_t k = 0; k < 3; k++)
		EXPECT_EQ(std::string(
				  reinterpret_cast<const char *>(f[0].bytes.data() + 16 + k * ss)),
			  text)
			<< "scope " << int(scopes[k]);
}

} // namespace

namespace {

// END runs when ACTIVE or DRAINING (after exit()), then stops everything.
TEST(bpf_translate, end_gate)
{
	SKIP_WITHOUT_BPF();
	harness h;
	clause c;
	c.line = 1;
	action a;
	a.kind = DTRACEACT_DIFEXPR;
	a.args.push_back(
		make_record(make_difo({DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)}, {9}), 16, 8));
	c.actions.push_back(a);
	c.size = 24;
	h.prog.clauses.push_back(c);
	ASSERT_TRUE(h.build(h.spec_all(gate::end))) << h.error << "\n" << h.log_tail();
	h.set_activity(DT_BPF_INACTIVE);
	ASSERT_TRUE(h.run({}));
	EXPECT_TRUE(firings(h).empty()) << "END before BEGIN";
	h.set_activity(DT_BPF_DRAINING);
	ASSERT_TRUE(h.run({}));
	EXPECT_EQ(firings(h).size(), 1u);
	EXPECT_EQ(activity(h.maps), static_cast<uint64_t>(DT_BPF_STOPPED));
	ASSERT_TRUE(h.run({}));
	EXPECT_TRUE(firings(h).empty()) << "after END";
}

} // namespace
