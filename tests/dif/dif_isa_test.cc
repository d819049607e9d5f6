// SPDX-License-Identifier: MIT
/*
 * dif_isa_test.cc - core/dif/dif_ops.def and dif_subrs.def against what is
 * made from them, entry by entry:
 *
 *   every opcode     dtrace -S prints its name; the validator accepts a
 *                    well-formed instance of its operand form and rejects
 *                    the same instruction with a bad operand (the reason
 *                    the form implies); xlate/xlarg are always refused.
 *   every number     that is no opcode: rejected, "(illegal opcode)".
 *   every subroutine the compiler knows its prototype (number, min and max
 *                    arguments, kind); dtrace -S names it; the interpreter
 *                    faults ILLOP (illval: the subroutine) with one argument
 *                    fewer than min, and with min arguments runs it (it
 *                    faults ILLOP on its own only where Linux or the test
 *                    environment has no meaning for it).
 *
 * That the interpreter has a case for every opcode is checked when it is
 * compiled (dif_emulate.c: -Wswitch-enum over enum dif_opcode).
 */
#include "dif_vectors.h"

#include "builtins.hpp"
#include "disasm.hpp"

#include <dif_emulate.h>
#include <dif_isa.h>
#include <dif_validate.h>
#include <dtrace/compiler.hpp>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

struct op_entry {
	const char *upper;
	const char *name;
	uint32_t num;
	dif_form form;
	int scope;
};

const op_entry k_ops[] = {
#define DIF_OP(NAME, name, num, form, scope) \
	{#NAME, name, num, DIF_FORM_##form, DIF_ISA_SCOPE_##scope},
#include "dif_ops.def"
#undef DIF_OP
};

struct subr_entry {
	const char *name;
	uint32_t num, min, max;
	const char *rtype;
	std::vector<const char *> params;
	bool destructive;
};

#define DIF_SUBR_PARAMS(...) __VA_ARGS__
const subr_entry k_subrs[] = {
#define DIF_SUBR(NAME, name, num, min, max, rtype, params, kind) \
	{name,                                                   \
	 num,                                                    \
	 min,                                                    \
	 max,                                                    \
	 rtype,                                                  \
	 {DIF_SUBR_PARAMS params},                               \
	 DIF_ISA_SUBR_##kind == DIF_ISA_SUBR_DESTRUCTIVE},
#include "dif_subrs.def"
#undef DIF_SUBR
};
#undef DIF_SUBR_PARAMS

constexpr uint32_t k_user_array = DIF_VAR_ARRAY_UBASE; // declared below
constexpr uint32_t k_user_var = DIF_VAR_OTHER_UBASE;   // declared below

// A DIF object: the instruction under test, then ret %r1; one integer,
// one string, the user variables declared in every scope.
struct object {
	std::vector<dif_instr_t> text;
	std::vector<uint64_t> ints{42};
	std::string strs{"s", 2};
	std::vector<dtrace_difv_t> vars;
	dif_difo_t dp{};

	explicit object(dif_instr_t in) : text{in, DIF_INSTR_RET(1)}
	{
		for (uint8_t scope : {DIFV_SCOPE_GLOBAL, DIFV_SCOPE_THREAD, DIFV_SCOPE_LOCAL}) {
			for (uint32_t id : {k_user_array, k_user_var}) {
				dtrace_difv_t v{};
				v.dtdv_id = id;
				v.dtdv_scope = scope;
				v.dtdv_kind =
					id == k_user_array ? DIFV_KIND_ARRAY : DIFV_KIND_SCALAR;
				vars.push_back(v);
			}
		}
		dp.text = text.data();
		dp.len = static_cast<uint32_t>(text.size());
		dp.inttab = ints.data();
		dp.intlen = static_cast<uint32_t>(ints.size());
		dp.strtab = strs.data();
		dp.strlen = static_cast<uint32_t>(strs.size());
		dp.vartab = vars.data();
		dp.varlen = static_cast<uint32_t>(vars.size());
	}

	// nullptr if valid, else the validator's reason.
	const char *validate() const
	{
		static const dif_limits_t lim = DIF_LIMITS_DEFAULT;
		dif_verr_t err{};
		return dif_validate(&dp, &lim, &err) == 0 ? nullptr : err.reason;
	}
};

// A well-formed instance of op and the same with a bad operand, with the
// reason the validator gives for it.
struct instances {
	dif_instr_t good, bad;
	const char *why;
};

instances make(const op_entry &e)
{
	const uint32_t op = e.num;
	switch (e.form) {
	case DIF_FORM_R1_R2_RD:
		return {DIF_INSTR_FMT(op, 1, 2, 3), DIF_INSTR_FMT(op, 1, 2, 0),
			"cannot write to %r0"};
	case DIF_FORM_R1_RD:
	case DIF_FORM_LOAD:
		return {DIF_INSTR_FMT(op, 1, 0, 2), DIF_INSTR_FMT(op, 1, 1, 2),
			"non-zero reserved bits"};
	case DIF_FORM_STORE:
		return {DIF_INSTR_FMT(op, 1, 0, 2), DIF_INSTR_FMT(op, 1, 0, 0),
			"cannot write to address 0"};
	case DIF_FORM_R1_R2:
		return {DIF_INSTR_FMT(op, 1, 2, 0), DIF_INSTR_FMT(op, 1, 2, 3),
			"non-zero reserved bits"};
	case DIF_FORM_R1:
		return {DIF_INSTR_FMT(op, 1, 0, 0), DIF_INSTR_FMT(op, DIF_DIR_NREGS, 0, 0),
			"invalid register"};
	case DIF_FORM_RS:
		return {DIF_INSTR_FMT(op, 0, 0, 1), DIF_INSTR_FMT(op, 1, 0, 1),
			"non-zero reserved bits"};
	case DIF_FORM_NONE:
		return {DIF_INSTR_FMT(op, 0, 0, 0), DIF_INSTR_FMT(op, 0, 0, 1),
			"non-zero reserved bits"};
	case DIF_FORM_BRANCH:
		return {DIF_INSTR_BRANCH(op, 1), DIF_INSTR_BRANCH(op, 0), "backward branch"};
	case DIF_FORM_INT_RD:
		return {DIF_INSTR_FMT(op, 0, 0, 1), DIF_INSTR_FMT(op, 0, 1, 1),
			"invalid integer reference"};
	case DIF_FORM_STR_RD:
		return {DIF_INSTR_FMT(op, 0, 0, 1), DIF_INSTR_FMT(op, 0, 2, 1),
			"invalid string reference"};
	case DIF_FORM_AVAR_R2_RD:
		return {DIF_INSTR_LDA(op, k_user_array, 1, 2),
			DIF_INSTR_LDA(op, k_user_array + 1, 1, 2), "unknown variable"};
	case DIF_FORM_VAR_RD:
		return {DIF_INSTR_LDV(op, k_user_var, 1), DIF_INSTR_LDV(op, k_user_var + 1, 1),
			"unknown variable"};
	case DIF_FORM_RS_VAR:
		return {DIF_INSTR_STV(op, k_user_var, 1), DIF_INSTR_STV(op, DIF_VAR_PID, 1),
			"cannot write to a built-in variable"};
	case DIF_FORM_SUBR_RD:
		return {DIF_INSTR_CALL(DIF_SUBR_RAND, 1), DIF_INSTR_CALL(DIF_SUBR_MAX + 1, 1),
			"invalid subroutine"};
	case DIF_FORM_TYPE_R2_RS:
	case DIF_FORM_TYPE_RS:
		return {DIF_INSTR_PUSHTS(op, DIF_TYPE_STRING, 1, 2),
			DIF_INSTR_PUSHTS(op, DIF_TYPE_STRING + 1, 1, 2), "invalid tuple type"};
	case DIF_FORM_XLREF_RD:
	case DIF_FORM_ILLEGAL: break;
	}
	return {DIF_INSTR_XLATE(op, 0, 1), DIF_INSTR_XLATE(op, 0, 1), "translator not resolved"};
}

// The instruction part of dtrace -S's line for in (after "NN: XXXXXXXX    ").
std::string disasm_line(dif_instr_t in)
{
	object o(in);
	dt::difo d;
	d.text = o.text;
	d.inttab = o.ints;
	d.strtab = o.strs;
	const std::string s = dt::compiler::disassemble(d, nullptr);
	const std::string head = "00: ";
	const size_t at = s.find(head);
	if (at == std::string::npos)
		return s;
	const size_t nl = s.find('\n', at);
	return s.substr(at + head.size() + 8 + 4, nl - (at + head.size() + 8 + 4));
}

TEST(dif_ops_def, numbers_are_the_uapi_numbers_and_complete)
{
	std::set<uint32_t> seen;
	for (const auto &e : k_ops) {
		EXPECT_TRUE(seen.insert(e.num).second) << e.upper;
		EXPECT_EQ(dif_op_form(e.num), e.form) << e.upper;
		EXPECT_STREQ(dif_op_name(e.num), e.name) << e.upper;
		EXPECT_EQ(dif_op_scope(e.num), e.scope) << e.upper;
	}
	for (uint32_t op = 1; op <= DIF_OP_MAX; op++)
		EXPECT_TRUE(seen.count(op)) << "opcode " << op << " is missing from dif_ops.def";
}

TEST(dif_ops_def, every_opcode_disassembles_with_its_name)
{
	for (const auto &e : k_ops) {
		const std::string line = disasm_line(make(e).good);
		const std::string name = e.name;
		EXPECT_EQ(line.rfind(name, 0), 0u) << e.upper << ": " << line;
		EXPECT_TRUE(line.size() == name.size() || line[name.size()] == ' ')
			<< e.upper << ": " << line;
	}
}

TEST(dif_ops_def, validator_accepts_each_form_and_rejects_bad_operands)
{
	for (const auto &e : k_ops) {
		const instances in = make(e);
		object good(in.good), bad(in.bad);
		if (e.form == DIF_FORM_XLREF_RD) {
			EXPECT_STREQ(good.validate(), "translator not resolved") << e.upper;
			continue;
		}
		EXPECT_EQ(good.validate(), nullptr) << e.upper << ": " << good.validate();
		EXPECT_STREQ(bad.validate(), in.why) << e.upper;
	}
}

TEST(dif_ops_def, numbers_that_are_no_opcode_are_refused)
{
	for (uint32_t op = 0; op < 256; op++) {
		if (dif_op_name(op))
			continue;
		object o(DIF_INSTR_FMT(op, 0, 0, 1));
		EXPECT_STREQ(o.validate(), "invalid opcode") << op;
		if (op == 80) // illumos' stga: disassembled, not ours
			continue;
		EXPECT_EQ(disasm_line(DIF_INSTR_FMT(op, 0, 0, 1)), "(illegal opcode)") << op;
	}
}

TEST(dif_subrs_def, numbers_are_the_uapi_numbers_and_complete)
{
	std::set<uint32_t> seen;
	for (const auto &e : k_subrs) {
		EXPECT_TRUE(seen.insert(e.num).second) << e.name;
		EXPECT_EQ(e.params.size(), e.max) << e.name;
		EXPECT_LE(e.min, e.max) << e.name;
		EXPECT_STREQ(dif_subr_name(e.num), e.name);
		EXPECT_EQ(dif_subr_min_args(e.num), e.min) << e.name;
		EXPECT_EQ(dif_subr_max_args(e.num), e.max) << e.name;
	}
	for (uint32_t s = 0; s <= DIF_SUBR_MAX; s++)
		EXPECT_TRUE(seen.count(s))
			<< "subroutine " << s << " is missing from dif_subrs.def";
	EXPECT_EQ(dif_subr_name(DIF_SUBR_MAX + 1), nullptr);
}

TEST(dif_subrs_def, the_compiler_has_every_prototype)
{
	for (const auto &e : k_subrs) {
		const dt::compiler::subr_proto *p = dt::compiler::find_subr(e.name);
		ASSERT_NE(p, nullptr) << e.name;
		EXPECT_EQ(p->id, e.num) << e.name;
		EXPECT_STREQ(p->rtype, e.rtype) << e.name;
		ASSERT_EQ(p->params.size(), e.params.size()) << e.name;
		for (size_t i = 0; i < e.params.size(); i++)
			EXPECT_STREQ(p->params[i], e.params[i]) << e.name << " #" << i;
		EXPECT_EQ(p->params.size() - static_cast<size_t>(p->optional), e.min) << e.name;
		EXPECT_EQ(p->destructive, e.destructive) << e.name;
	}
}

TEST(dif_subrs_def, every_subroutine_disassembles_with_its_name)
{
	for (const auto &e : k_subrs) {
		EXPECT_STREQ(dt::compiler::subr_name(e.num), e.name);
		const std::string line = disasm_line(DIF_INSTR_CALL(e.num, 1));
		EXPECT_NE(line.find(std::string("\t\t! ") + e.name), std::string::npos)
			<< e.name << ": " << line;
	}
}

// Run call subr with n tuple arguments (each 0) in the dif_vectors sandbox.
struct call_result {
	int fault;
	uint64_t illval;
};

call_result call_with(uint32_t subr, uint32_t n)
{
	std::vector<dif_instr_t> text{DIF_INSTR_FLUSHTS};
	for (uint32_t i = 0; i < n; i++)
		text.push_back(DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 0));
	text.push_back(DIF_INSTR_CALL(subr, 1));
	text.push_back(DIF_INSTR_RET(1));
	dif_difo_t dp{};
	dp.text = text.data();
	dp.len = static_cast<uint32_t>(text.size());
	auto m = std::make_unique<dv_mem_t>();
	dif_ctx_t c;
	dv_setup(&c, &dp, m.get(), 0, 0);
	const dif_limits_t lim = DIF_LIMITS_DEFAULT;
	dif_verr_t err{};
	EXPECT_EQ(dif_validate(&dp, &lim, &err), 0) << err.reason;
	dif_emulate(&c);
	return {c.fault, c.illval};
}

TEST(dif_subrs_def, the_interpreter_checks_min_args)
{
	// ILLOP whatever the arguments: Solaris-only (dif_subr.c), or what
	// the sandbox's context lacks (d_path's op, struct mutex's layout).
	const std::set<std::string> no_meaning = {
		"mutex_owned",	   "mutex_owner", "mutex_type_adaptive",
		"mutex_type_spin", "msgdsize",	  "msgsize",
		"ddi_pathname",	   "getf",	  "d_path"};
	for (const auto &e : k_subrs) {
		if (e.min > 0) {
			const call_result r = call_with(e.num, e.min - 1);
			EXPECT_EQ(r.fault, DTRACEFLT_ILLOP) << e.name;
			EXPECT_EQ(r.illval, e.num) << e.name;
		}
		const call_result r = call_with(e.num, e.min);
		if (no_meaning.count(e.name)) {
			EXPECT_EQ(r.fault, DTRACEFLT_ILLOP) << e.name;
			continue;
		}
		EXPECT_FALSE(r.fault == DTRACEFLT_ILLOP && r.illval == e.num)
			<< e.name << " with " << e.min << " arguments faults ILLOP";
	}
}

} // namespace
