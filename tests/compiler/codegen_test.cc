// SPDX-License-Identifier: MIT
// Code generation: expressions evaluated on the DIF VM with C's integer
// semantics (promotions, signedness, narrowing casts), short circuits,
// string comparison, builtins and args[].
#include "helpers.hpp"

namespace {

using dt::test::compile_n;
using dt::test::has_op;
using dt::test::run;

int64_t eval(const std::string &e)
{
	dt::program p = compile_n("BEGIN { trace(" + e + "); }");
	return static_cast<int64_t>(run(p.clauses.at(0).actions.at(0).args.at(0).expr));
}

TEST(codegen, arithmetic_with_promotions)
{
	EXPECT_EQ(eval("arg1 + arg2 * 3"), 10 + 20 * 3);
	EXPECT_EQ(eval("(arg3 - arg4) / 5"), -2);
	EXPECT_EQ(eval("-arg2 % 7"), -20 % 7);
	EXPECT_EQ(eval("arg1 << 4 | 1"), (10 << 4) | 1);
	EXPECT_EQ(eval("~arg1 & 0xff"), ~10 & 0xff);
	EXPECT_EQ(eval("arg5 ^ arg2"), 50 ^ 20);
	// unsigned division of a negative value
	EXPECT_EQ(static_cast<uint64_t>(eval("(uint64_t)(0 - arg1) / 2")),
		  static_cast<uint64_t>(-10) / 2);
}

TEST(codegen, narrowing_casts)
{
	EXPECT_EQ(eval("(char)(arg3 * 10)"), static_cast<int8_t>(300));
	EXPECT_EQ(eval("(unsigned char)(arg3 * 10)"), static_cast<uint8_t>(300));
	EXPECT_EQ(eval("(short)(arg1 * 7000)"), static_cast<int16_t>(70000));
	EXPECT_EQ(eval("(int)(arg1 * 300000000)"), static_cast<int32_t>(3000000000LL));
	// A record of type char is one byte.
	dt::program p = compile_n("BEGIN { trace((char)arg1); }");
	EXPECT_EQ(p.clauses[0].actions[0].args[0].size, 1u);
}

TEST(codegen, comparisons_signed_and_unsigned)
{
	EXPECT_EQ(eval("arg1 < arg2"), 1);
	EXPECT_EQ(eval("arg2 <= arg1"), 0);
	EXPECT_EQ(eval("0 - arg1 < arg1"), 1);
	EXPECT_EQ(eval("(uint64_t)(0 - arg1) < arg1"), 0);
	EXPECT_EQ(eval("arg1 == 10"), 1);
	EXPECT_EQ(eval("arg1 != 10"), 0);
	EXPECT_EQ(eval("arg2 >= 20 && arg2 > 19"), 1);
}

TEST(codegen, logical_operators_short_circuit)
{
	EXPECT_EQ(eval("arg0 && 1 / arg0"), 0); // no division by zero
	EXPECT_EQ(eval("arg1 || 1 / arg0"), 1);
	EXPECT_EQ(eval("arg0 || arg1"), 1);
	EXPECT_EQ(eval("arg1 ^^ arg2"), 0);
	EXPECT_EQ(eval("arg0 ^^ arg2"), 1);
	EXPECT_EQ(eval("!arg0"), 1);
	EXPECT_EQ(eval("!arg1"), 0);
	EXPECT_EQ(eval("arg1 ? arg2 : arg3"), 20);
	EXPECT_EQ(eval("arg0 ? arg2 : arg3"), 30);
}

TEST(codegen, strings_compare_with_scmp)
{
	dt::program p = compile_n("BEGIN /execname == \"dtrace\"/ { trace(\"a\" < \"b\"); }");
	ASSERT_TRUE(p.clauses[0].predicate);
	EXPECT_TRUE(has_op(*p.clauses[0].predicate, DIF_OP_SCMP));
	EXPECT_TRUE(has_op(*p.clauses[0].predicate, DIF_OP_SETS));
	EXPECT_EQ(run(*p.clauses[0].predicate), 1u);
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 1u);
	dt::program q = compile_n("BEGIN /execname != \"dtrace\"/ { }");
	EXPECT_EQ(run(*q.clauses[0].predicate), 0u);
}

TEST(codegen, subroutine_calls_use_the_tuple_stack)
{
	dt::program p =
		compile_n("BEGIN { trace(strlen(execname)); trace(substr(\"hello\", 1, 3)); }");
	const auto &d = p.clauses[0].actions[0].args[0].expr;
	EXPECT_TRUE(has_op(d, DIF_OP_FLUSHTS));
	EXPECT_TRUE(has_op(d, DIF_OP_PUSHTR));
	EXPECT_TRUE(has_op(d, DIF_OP_CALL));
	EXPECT_EQ(run(d), 6u);
	EXPECT_EQ(p.clauses[0].actions[0].args[0].size, 8u); // size_t
	EXPECT_EQ(p.clauses[0].actions[1].args[0].type.k, dt::value_type::kind::string);
}

TEST(codegen, args_array_and_builtins)
{
	dt::program p = compile_n("BEGIN { trace(args[2]); trace(timestamp); trace(probename); }");
	const auto &a = p.clauses[0].actions;
	EXPECT_TRUE(has_op(a[0].args[0].expr, DIF_OP_LDGA));
	EXPECT_EQ(run(a[0].args[0].expr), 20u);
	EXPECT_EQ(a[1].args[0].expr.text[0], DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_TIMESTAMP, 1));
	EXPECT_FALSE(a[1].args[0].type.is_signed);
	EXPECT_EQ(a[2].args[0].type.k, dt::value_type::kind::string);
}

TEST(codegen, thread_locals_and_associative_arrays_opcodes)
{
	dt::program p = compile_n("BEGIN { self->ts = timestamp; } END /self->ts/ { @[probefunc] = "
				  "sum(timestamp - self->ts); self->ts = 0; x[1, \"a\"]++; }");
	EXPECT_TRUE(has_op(*p.clauses[1].predicate, DIF_OP_LDTS));
	const auto &agg = p.clauses[1].actions[0];
	EXPECT_EQ(agg.kind, DTRACEAGG_SUM);
	EXPECT_TRUE(has_op(agg.args[0].expr, DIF_OP_LDTS));
	EXPECT_TRUE(has_op(agg.args[0].expr, DIF_OP_SUB));
	const auto &inc = p.clauses[1].actions[2].args[0].expr;
	EXPECT_TRUE(has_op(inc, DIF_OP_LDGAA));
	EXPECT_TRUE(has_op(inc, DIF_OP_STGAA));
	EXPECT_EQ(p.aggregations[0].name, "");
}

TEST(codegen, every_opcode_shape_validates)
{
	// A broad program: all DIF objects must pass dif_validate (compile_n
	// checks them).
	dt::program p = compile_n(
		"BEGIN { x = 1; x += 2; x <<= 1; y = x++ + --x; s = \"a\"; self->a[s] = x; "
		"this->z = self->a[s] ? 1 : 2; trace(this->z); trace(stringof(arg0)); "
		"printf(\"%d %s %x %c\\n\", x, s, y, 65); tracemem(arg0, 16); "
		"trace(sizeof(int)); trace(arg1 * (arg2 + arg3) - arg4 / (arg5 | 1)); }");
	EXPECT_GT(p.clauses[0].actions.size(), 8u);
}

} // namespace
