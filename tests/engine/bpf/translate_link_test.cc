// SPDX-License-Identifier: MIT
//
// translate_link_test.cc - link.cc on a library object that uses what the
// real library may use (translate_linklib.bpf.c): a bpf_loop callback,
// static and global calls, a map by name. @ = sum(strlen(arg0)) calls the
// stand-in dt_subr_strlen; the program loads with the BTF func_info the
// linker produced and computes 2 * (0 + ... + n-1) + dt_status.exit_cpu.
// Also: library::parse's view of the object, and refusals.
#include "translate_support.hpp"

#include "btf.hpp"
#include "codegen.hpp"
#include "link.hpp"

#include <gtest/gtest.h>

extern "C" {
extern const unsigned char dt_test_linklib[];
extern const size_t dt_test_linklib_size;
}

namespace {

using namespace dt;
using namespace dt::test::bpft;

program strlen_sum()
{
	program p;
	aggregation ag;
	ag.id = 1;
	ag.func = DTRACEAGG_SUM;
	p.aggregations.push_back(ag);
	clause c;
	c.line = 1;
	action a;
	a.kind = DTRACEAGG_SUM;
	a.aggid = 1;
	a.args.push_back(make_record(
		make_difo({DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1), DIF_INSTR_FLUSHTS,
			   DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 1),
			   DIF_INSTR_CALL(DIF_SUBR_STRLEN, 2), DIF_INSTR_RET(2)}),
		0, 0));
	c.actions.push_back(a);
	p.clauses.push_back(c);
	return p;
}

TEST(bpf_translate_link, parse_sees_functions_and_relocations)
{
	library lib = library::parse(dt_test_linklib, dt_test_linklib_size);
	EXPECT_TRUE(lib.has("dt_subr_strlen"));
	EXPECT_TRUE(lib.has("exit_cpu"));
	EXPECT_TRUE(lib.has("twice")) << "static functions are functions too";
	EXPECT_TRUE(lib.has("add_index"));
	bool map = false, callback = false;
	for (auto &[idx, r] : lib.relocs) {
		map = map || r.sym == "dt_status";
		callback = callback ||
			   (r.sym_is_text && lib.text[idx].code == (BPF_LD | BPF_DW | BPF_IMM));
	}
	EXPECT_TRUE(map);
	EXPECT_TRUE(callback);
}

TEST(bpf_translate_link, callbacks_calls_and_maps_link_and_run)
{
	std::string why = bpf_unusable();
	if (!why.empty())
		GTEST_SKIP() << "needs bpf() (root): " << why;
	library lib = library::parse(dt_test_linklib, dt_test_linklib_size);
	harness h;
	h.prog = strlen_sum();
	ASSERT_TRUE(h.prepare()) << h.error;
	probe_spec spec = h.spec_all(gate::probe, 1);
	map_fds fds = h.maps.fds();
	codegen g(h.prog, h.lay, spec, fds, lib);
	g.generate();
	g.a.finish();
	link_result lr = link(g.a, lib, fds);
	EXPECT_TRUE(lr.callbacks);
	// main, dt_subr_strlen, twice, exit_cpu, add_index, dt_emit_fault (the
	// clause only aggregates: no dt_emit_firing)
	EXPECT_EQ(lr.func_starts.size(), 6u);
	h.tr.insns = g.a.code;
	h.tr.clause_starts = g.clause_starts;
	build_btf(lr.func_starts, h.tr.btf, h.tr.func_info);
	ASSERT_EQ(h.tr.func_info.size(), lr.func_starts.size());
	ASSERT_TRUE(h.load()) << h.error << "\n" << h.log_tail();

	dt_bpf_status st{};
	st.activity = DT_BPF_ACTIVE;
	st.exit_cpu = 5;
	uint32_t zero = 0;
	ASSERT_EQ(bpf_map_update_elem(h.maps.status.get(), &zero, &st, BPF_ANY), 0);
	ASSERT_TRUE(h.run({10}, 1)); // 2 * 45 + 5
	ASSERT_TRUE(h.run({4}, 1));  // 2 * 6 + 5
	auto got = h.agg(1);
	ASSERT_EQ(got.size(), 1u);
	EXPECT_EQ(summed(got.begin()->second)[0], 95 + 17);
}

TEST(bpf_translate_link, a_missing_map_is_refused_by_name)
{
	library lib = library::parse(dt_test_linklib, dt_test_linklib_size);
	asm_buf a;
	a.call_sym("exit_cpu");
	a.exit_();
	map_fds fds; // dt_status not created
	try {
		(void)link(a, lib, fds);
		FAIL() << "linked";
	} catch (const translate_error &e) {
		EXPECT_NE(std::string(e.what()).find("dt_status"), std::string::npos) << e.what();
	}
}

TEST(bpf_translate_link, an_unknown_function_is_refused_by_name)
{
	library lib = library::parse(dt_test_linklib, dt_test_linklib_size);
	asm_buf a;
	a.call_sym("dt_nonesuch");
	a.exit_();
	try {
		(void)link(a, lib, map_fds{});
		FAIL() << "linked";
	} catch (const translate_error &e) {
		EXPECT_STREQ(e.what(), "bpf engine: the BPF library has no dt_nonesuch()");
	}
}

} // namespace
