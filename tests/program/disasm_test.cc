// SPDX-License-Identifier: MIT
/*
 * disasm_test.cc - dtrace -S output for hand-built DIF objects. The
 * expected text follows illumos dt_dis() (libdtrace/common/dt_dis.c): its
 * printf formats, the "\t\t! " comments, hex variable ids, the type string
 * of dt_dis_typestr() and the subroutine names of dtrace_subrstr().
 */
#include "disasm.hpp"

#include <dtrace/compiler.hpp>

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

namespace {

dtrace_diftype_t int_type(uint32_t size)
{
	dtrace_diftype_t t{};
	t.dtdt_kind = DIF_TYPE_CTF;
	t.dtdt_ckind = 1; /* CTF_K_INTEGER */
	t.dtdt_size = size;
	return t;
}

std::string header(const void *addr)
{
	char buf[64];
	std::snprintf(buf, sizeof(buf), "\nDIFO 0x%lx returns ",
		      static_cast<unsigned long>(reinterpret_cast<uintptr_t>(addr)));
	return buf;
}

TEST(disasm, setx_ret_like_dtrace_S_of_trace_1)
{
	dt::difo d;
	d.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	d.inttab = {1};
	d.rtype = int_type(4);
	EXPECT_EQ(dt::compiler::disassemble(d, reinterpret_cast<const void *>(0x1234)),
		  "\nDIFO 0x1234 returns D type (integer) (size 4)\n"
		  "OFF OPCODE      INSTRUCTION\n"
		  "00: 25000001    setx DT_INTEGER[0], %r1\t\t! 0x1\n"
		  "01: 23000001    ret  %r1\n");
}

TEST(disasm, default_address_is_the_difo)
{
	dt::difo d;
	d.text = {DIF_INSTR_RET(0)};
	const std::string s = dt::compiler::disassemble(d);
	EXPECT_EQ(s.rfind(header(&d), 0), 0u) << s;
	EXPECT_NE(s.find("returns D type (unknown) (size 0)\n"), std::string::npos);
}

TEST(disasm, every_operand_format)
{
	dt::difo d;
	d.strtab = std::string("hello\0x\0self_x\0loc\0", 20);
	d.inttab = {0xdeadbeef};
	d.text = {
		DIF_INSTR_FMT(DIF_OP_ADD, 1, 2, 3),
		DIF_INSTR_BRANCH(DIF_OP_BNE, 7),
		DIF_INSTR_LOAD(DIF_OP_LDUB, 1, 2),
		DIF_INSTR_STORE(DIF_OP_STX, 3, 4),
		DIF_INSTR_MOV(1, 2),
		DIF_INSTR_CMP(DIF_OP_SCMP, 1, 2),
		DIF_INSTR_TST(5),
		DIF_INSTR_NOP,
		DIF_INSTR_SETS(0, 1),
		DIF_INSTR_LDV(DIF_OP_LDGS, 0x500, 2),
		DIF_INSTR_STV(DIF_OP_STTS, 0x500, 3),
		DIF_INSTR_LDV(DIF_OP_LDLS, 0x501, 3),
		DIF_INSTR_LDA(DIF_OP_LDGA, DIF_VAR_ARGS, 1, 2),
		DIF_INSTR_CALL(DIF_SUBR_STRJOIN, 4),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING, 0, 1),
		DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF, 0, 2),
		DIF_INSTR_FLUSHTS,
		DIF_INSTR_SETX(0, 6),
		DIF_INSTR_CALL(DIF_SUBR_D_PATH, 1),
		DIF_INSTR_FMT(0, 0, 0, 0),
		DIF_INSTR_FMT(99, 1, 2, 3),
		DIF_INSTR_RET(2),
	};
	dtrace_difv_t g{}, t{}, l{};
	g.dtdv_name = 6;
	g.dtdv_id = 0x500;
	g.dtdv_kind = DIFV_KIND_SCALAR;
	g.dtdv_scope = DIFV_SCOPE_GLOBAL;
	g.dtdv_flags = DIFV_F_REF;
	g.dtdv_type = int_type(8);
	t = g;
	t.dtdv_name = 8;
	t.dtdv_scope = DIFV_SCOPE_THREAD;
	t.dtdv_flags = DIFV_F_REF | DIFV_F_MOD;
	l.dtdv_name = 15;
	l.dtdv_id = 0x501;
	l.dtdv_kind = DIFV_KIND_ARRAY;
	l.dtdv_scope = DIFV_SCOPE_LOCAL;
	l.dtdv_flags = 0x10 | DIFV_F_MOD;
	l.dtdv_type.dtdt_kind = DIF_TYPE_STRING;
	l.dtdv_type.dtdt_flags = DIF_TF_BYREF;
	l.dtdv_type.dtdt_size = 256;
	d.vartab = {g, t, l};
	d.rtype.dtdt_kind = DIF_TYPE_STRING;
	d.rtype.dtdt_flags = DIF_TF_BYREF;
	d.rtype.dtdt_size = 256;
	EXPECT_EQ(dt::compiler::disassemble(d, reinterpret_cast<const void *>(0xabc)),
		  "\nDIFO 0xabc returns string (unknown) by ref (size 256)\n"
		  "OFF OPCODE      INSTRUCTION\n"
		  "00: 07010203    add  %r1, %r2, %r3\n"
		  "01: 13000007    bne  7\n"
		  "02: 1f010002    ldub [%r1], %r2\n"
		  "03: 3f030004    stx  %r3, [%r4]\n"
		  "04: 0e010002    mov  %r1, %r2\n"
		  "05: 27010200    scmp %r1, %r2\n"
		  "06: 10050000    tst  %r5\n"
		  "07: 24000000    nop\n"
		  "08: 26000001    sets DT_STRING[0], %r1\t\t! \"hello\"\n"
		  "09: 29050002    ldgs DT_VAR(1280), %r2\t\t! DT_VAR(1280) = \"x\"\n"
		  "10: 2d050003    stts %r3, DT_VAR(1280)\t\t! DT_VAR(1280) = \"self_x\"\n"
		  "11: 38050103    ldls DT_VAR(1281), %r3\t\t! DT_VAR(1281) = \"loc\"\n"
		  "12: 28000102    ldga DT_VAR(0), %r1, %r2\n"
		  "13: 2f001704    call DIF_SUBR(23), %r4\t\t! strjoin\n"
		  "14: 30010001    pushtr DT_TYPE(1), %r0, %r1\t! DT_TYPE(1) = string\n"
		  "15: 31000002    pushtv DT_TYPE(0), %r2\t\t! DT_TYPE(0) = D type\n"
		  "16: 33000000    flushts\n"
		  "17: 25000006    setx DT_INTEGER[0], %r6\t\t! 0xdeadbeef\n"
		  "18: 2f003101    call DIF_SUBR(49), %r1\t\t! d_path\n"
		  "19: 00000000    (illegal opcode)\n"
		  "20: 63010203    (illegal opcode)\n"
		  "21: 23000002    ret  %r2\n"
		  "\n"
		  "NAME             ID   KND SCP FLAG TYPE\n"
		  "x                500  scl glb r    D type (integer) (size 8)\n"
		  "self_x           500  scl tls r/w  D type (integer) (size 8)\n"
		  "loc              501  arr loc 0x10/w string (unknown) by ref (size 256)\n");
}

TEST(disasm, out_of_range_references_have_no_comment)
{
	dt::difo d;
	d.text = {DIF_INSTR_SETX(3, 1),
		  DIF_INSTR_SETS(9, 1),
		  DIF_INSTR_LDV(DIF_OP_LDGS, 0x600, 1),
		  DIF_INSTR_CALL(300, 1),
		  DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, 7, 0, 1),
		  DIF_INSTR_RET(1)};
	const std::string s = dt::compiler::disassemble(d, nullptr);
	EXPECT_NE(s.find("00: 25000301    setx DT_INTEGER[3], %r1\n"), std::string::npos) << s;
	EXPECT_NE(s.find("01: 26000901    sets DT_STRING[9], %r1\n"), std::string::npos) << s;
	EXPECT_NE(s.find("02: 29060001    ldgs DT_VAR(1536), %r1\n"), std::string::npos) << s;
	EXPECT_NE(s.find("03: 2f012c01    call DIF_SUBR(300), %r1\t\t! unknown\n"),
		  std::string::npos)
		<< s;
	EXPECT_NE(s.find("04: 31070001    pushtv DT_TYPE(7), %r1\n"), std::string::npos) << s;
	EXPECT_EQ(s.find("NAME"), std::string::npos);
}

TEST(disasm, program_in_assembly_order)
{
	dt::program p;
	dt::clause c;
	dt::difo pred, key, val, arg;
	pred.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	pred.inttab = {11};
	key.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	key.inttab = {22};
	val.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	val.inttab = {33};
	arg.text = {DIF_INSTR_SETX(0, 1), DIF_INSTR_RET(1)};
	arg.inttab = {44};
	c.predicate = pred;
	dt::action agg;
	agg.kind = DTRACEAGG_SUM;
	agg.keys.push_back(dt::record{key, {}, 0, 8, 8});
	agg.args.push_back(dt::record{val, {}, 0, 8, 8});
	dt::action tr;
	tr.kind = DTRACEACT_DIFEXPR;
	tr.args.push_back(dt::record{arg, {}, 0, 8, 8});
	c.actions = {agg, tr};
	p.clauses.push_back(c);
	p.clauses.push_back(dt::clause{}); /* no predicate, no actions: nothing */
	const std::string s = dt::compiler::disassemble(p);
	const auto a = s.find("! 0xb\n"), b = s.find("! 0x16\n"), d = s.find("! 0x21\n"),
		   e = s.find("! 0x2c\n");
	ASSERT_NE(a, std::string::npos) << s;
	ASSERT_NE(b, std::string::npos) << s;
	ASSERT_NE(d, std::string::npos) << s;
	ASSERT_NE(e, std::string::npos) << s;
	EXPECT_LT(a, b);
	EXPECT_LT(b, d);
	EXPECT_LT(d, e);
	size_t n = 0;
	for (size_t pos = 0; (pos = s.find("\nDIFO 0x", pos)) != std::string::npos; pos++)
		n++;
	EXPECT_EQ(n, 4u);

	/* Two probe descriptions: illumos compiles (and prints) the clause twice. */
	p.clauses[0].descs.resize(2);
	const std::string twice = dt::compiler::disassemble(p);
	EXPECT_EQ(twice.size(), 2 * s.size());
}

} // namespace
