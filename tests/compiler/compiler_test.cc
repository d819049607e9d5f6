// SPDX-License-Identifier: MIT
// The D compiler end to end: programs, clauses, actions, records and their
// layout (program.hpp), aggregations, variables, options and macros.
#include "helpers.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace {

using dt::program;
using dt::test::compile_n;
using dt::test::compile_s;
using dt::test::has_op;
using dt::test::run;

TEST(compile, hello_printf_and_exit)
{
	program p = compile_n("BEGIN { printf(\"hello %d\\n\", 1 + 2); exit(0); }");
	ASSERT_EQ(p.clauses.size(), 1u);
	const auto &c = p.clauses[0];
	ASSERT_EQ(c.descs.size(), 1u);
	EXPECT_EQ(c.descs[0].name, "BEGIN");
	EXPECT_EQ(c.descs[0].provider, "");
	EXPECT_EQ(c.desc_text, "BEGIN");
	EXPECT_FALSE(c.predicate.has_value());
	ASSERT_EQ(c.actions.size(), 2u);
	const auto &pf = c.actions[0];
	EXPECT_EQ(pf.kind, DTRACEACT_PRINTF);
	EXPECT_EQ(pf.format, "hello %d\n");
	ASSERT_EQ(pf.args.size(), 1u);
	// int: 4 bytes, 4-aligned, right after the 12-byte record header.
	EXPECT_EQ(pf.args[0].offset, 12u);
	EXPECT_EQ(pf.args[0].size, 4u);
	EXPECT_EQ(pf.args[0].type.k, dt::value_type::kind::integer);
	EXPECT_TRUE(pf.args[0].type.is_signed);
	EXPECT_EQ(run(pf.args[0].expr), 3u);
	const auto &ex = c.actions[1];
	EXPECT_EQ(ex.kind, DTRACEACT_EXIT);
	ASSERT_EQ(ex.args.size(), 1u);
	EXPECT_EQ(ex.args[0].offset, 16u);
	EXPECT_EQ(ex.args[0].size, 4u);
	EXPECT_EQ(run(ex.args[0].expr), 0u);
	EXPECT_EQ(c.size, 24u); // 20 rounded up to 8
	ASSERT_EQ(p.formats.size(), 1u);
	EXPECT_EQ(p.formats[0], "hello %d\n");
}

TEST(compile, count_aggregation_keyed_by_execname)
{
	program p = compile_n("BEGIN { @a[execname] = count(); }");
	ASSERT_EQ(p.aggregations.size(), 1u);
	const auto &ag = p.aggregations[0];
	EXPECT_EQ(ag.id, 1u);
	EXPECT_EQ(ag.name, "a");
	EXPECT_EQ(ag.func, DTRACEAGG_COUNT);
	ASSERT_EQ(ag.keys.size(), 1u);
	EXPECT_EQ(ag.keys[0].k, dt::value_type::kind::string);
	EXPECT_EQ(ag.keys[0].size, 257u); // strsize characters and a NUL
	EXPECT_EQ(ag.key_offsets, std::vector<uint32_t>{0});
	EXPECT_EQ(ag.key_size, 264u);
	EXPECT_EQ(ag.nwords, 1u);
	const auto &a = p.clauses[0].actions.at(0);
	EXPECT_EQ(a.kind, DTRACEAGG_COUNT);
	EXPECT_EQ(a.aggid, 1u);
	ASSERT_EQ(a.keys.size(), 1u);
	// ldgs execname ; ret
	ASSERT_EQ(a.keys[0].expr.text.size(), 2u);
	EXPECT_EQ(a.keys[0].expr.text[0], DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_EXECNAME, 1));
	EXPECT_EQ(a.keys[0].expr.text[1], DIF_INSTR_RET(1));
	EXPECT_EQ(a.keys[0].expr.rtype.dtdt_kind, DIF_TYPE_STRING);
	EXPECT_TRUE(a.args.empty());
	EXPECT_EQ(p.clauses[0].size, 16u); // aggregations record nothing in the buffer
}

TEST(compile, aggregation_functions_words_and_params)
{
	program p = compile_n("tick-1s { @c = count(); @s = sum(1); @v = avg(2); @d = stddev(3);"
			      "@q = quantize(4); @l = lquantize(5, 0, 100, 10);"
			      "@ll = llquantize(6, 10, 0, 2, 10); @mn = min(1); @mx = max(2); }");
	ASSERT_EQ(p.aggregations.size(), 9u);
	auto find = [&](const std::string &n) -> const dt::aggregation & {
		for (const auto &a : p.aggregations)
			if (a.name == n)
				return a;
		throw std::runtime_error("no @" + n);
	};
	EXPECT_EQ(find("c").nwords, 1u);
	EXPECT_EQ(find("v").nwords, 2u);
	EXPECT_EQ(find("d").nwords, 4u);
	EXPECT_EQ(find("q").nwords, 127u);
	EXPECT_EQ(find("l").nwords, 12u); // 10 levels + underflow + overflow
	EXPECT_EQ(find("l").params, (std::vector<int64_t>{0, 100, 10}));
	// 10/0/2/10: underflow, 9 buckets per decade for 3 decades, overflow.
	EXPECT_EQ(find("ll").nwords, 29u);
	EXPECT_EQ(find("ll").params, (std::vector<int64_t>{10, 0, 2, 10}));
	// ids in first-use order
	for (size_t i = 0; i < p.aggregations.size(); i++)
		EXPECT_EQ(p.aggregations[i].id, i + 1);
	EXPECT_EQ(find("c").id, 1u);
	EXPECT_EQ(find("mx").id, 9u);
}

TEST(compile, probe_descriptions_and_predicate)
{
	program p =
		compile_n("syscall::read:entry, syscall::write:entry /pid == 1/ { trace(arg0); }");
	const auto &c = p.clauses.at(0);
	ASSERT_EQ(c.descs.size(), 2u);
	EXPECT_EQ(c.descs[0].provider, "syscall");
	EXPECT_EQ(c.descs[0].func, "read");
	EXPECT_EQ(c.descs[0].name, "entry");
	EXPECT_EQ(c.descs[1].func, "write");
	EXPECT_EQ(c.desc_text, "syscall::read:entry,syscall::write:entry");
	ASSERT_TRUE(c.predicate.has_value());
	EXPECT_TRUE(has_op(*c.predicate, DIF_OP_CMP));
	// pid is DIF_VAR_PID (0x116) in the mini environment: false.
	EXPECT_EQ(run(*c.predicate), 0u);
	const auto &t = c.actions.at(0);
	EXPECT_EQ(t.kind, DTRACEACT_DIFEXPR);
	EXPECT_EQ(t.args.at(0).size, 8u);
	EXPECT_EQ(t.args.at(0).offset, 16u);
}

TEST(compile, descriptions_of_every_shape)
{
	program p = compile_s("BEGIN\n{}\nprofile-97\n{}\ntick-1sec {}\nfbt:::\n{}\n"
			      "syscall::*read*:entry {}\n:::END {}\n");
	ASSERT_EQ(p.clauses.size(), 6u);
	EXPECT_EQ(p.clauses[1].descs[0].name, "profile-97");
	EXPECT_EQ(p.clauses[2].descs[0].name, "tick-1sec");
	EXPECT_EQ(p.clauses[3].descs[0].provider, "fbt");
	EXPECT_EQ(p.clauses[4].descs[0].func, "*read*");
	EXPECT_EQ(p.clauses[5].descs[0].name, "END");
	EXPECT_EQ(p.clauses[0].line, 1u);
	EXPECT_EQ(p.clauses[1].line, 3u);
	for (const auto &c : p.clauses) {
		EXPECT_TRUE(c.actions.empty());
		EXPECT_EQ(c.size, 16u);
	}
}

// A string record holds strsize characters and a NUL: 257 bytes by default.
TEST(compile, string_records_are_strsize_bytes_at_alignment_one)
{
	program p = compile_n("BEGIN { trace(\"hi\"); trace(1); printf(\"%s %d\", execname, 2); }");
	const auto &c = p.clauses.at(0);
	EXPECT_EQ(c.actions[0].args[0].offset, 12u);
	EXPECT_EQ(c.actions[0].args[0].size, 257u);
	EXPECT_EQ(c.actions[0].args[0].type.k, dt::value_type::kind::string);
	EXPECT_EQ(c.actions[1].args[0].offset, 272u);
	EXPECT_EQ(c.actions[2].args[0].offset, 276u);
	EXPECT_EQ(c.actions[2].args[1].offset, 536u);
	EXPECT_EQ(c.size, 544u);
}

TEST(compile, strsize_option_changes_string_records)
{
	program p = compile_s("#pragma D option strsize=32\nBEGIN { trace(execname); }\n");
	EXPECT_EQ(p.clauses[0].actions[0].args[0].size, 33u);
	EXPECT_EQ(p.option("strsize"), "32");
}

TEST(compile, pragmas_set_options)
{
	program p = compile_s(
		"#!/usr/sbin/dtrace -s\n#pragma D option quiet\n"
		"#pragma D option bufsize=4m\n#pragma D attributes Evolving/Evolving/Common provider syscall\n"
		"BEGIN { exit(0); }\n");
	EXPECT_EQ(p.option("quiet"), "");
	EXPECT_EQ(p.option("bufsize"), "4m");
	EXPECT_FALSE(p.option("flowindent").has_value());
}

TEST(compile, assignments_are_state_only_actions)
{
	program p =
		compile_n("BEGIN { x = 1; self->t = timestamp; this->v = 2; a[\"k\", 1] = 3; }");
	const auto &acts = p.clauses.at(0).actions;
	ASSERT_EQ(acts.size(), 4u);
	for (const auto &a : acts) {
		EXPECT_EQ(a.kind, DTRACEACT_DIFEXPR);
		EXPECT_FALSE(a.records);
		EXPECT_EQ(a.args.at(0).size, 0u);
	}
	EXPECT_EQ(p.clauses[0].size, 16u);
	EXPECT_TRUE(has_op(acts[0].args[0].expr, DIF_OP_STGS));
	EXPECT_TRUE(has_op(acts[1].args[0].expr, DIF_OP_STTS));
	EXPECT_TRUE(has_op(acts[2].args[0].expr, DIF_OP_STLS));
	const auto &aa = acts[3].args[0].expr;
	EXPECT_TRUE(has_op(aa, DIF_OP_PUSHTR));
	EXPECT_TRUE(has_op(aa, DIF_OP_PUSHTV));
	EXPECT_TRUE(has_op(aa, DIF_OP_STGAA));
	// variables: user ids from DIF_VAR_OTHER_UBASE, per scope
	ASSERT_EQ(p.variables.size(), 4u);
	for (const auto &v : p.variables) {
		EXPECT_GE(v.id, DIF_VAR_OTHER_UBASE);
		if (v.name == "a") {
			EXPECT_EQ(v.kind, DIFV_KIND_ARRAY);
			ASSERT_EQ(v.key_types.size(), 2u);
			EXPECT_EQ(v.key_types[0].k, dt::value_type::kind::string);
		}
		if (v.name == "t") {
			EXPECT_EQ(v.scope, DIFV_SCOPE_THREAD);
		}
		if (v.name == "v") {
			EXPECT_EQ(v.scope, DIFV_SCOPE_LOCAL);
		}
	}
	// The vartab names the variable in the DIF object's string table.
	const auto &vt = acts[0].args[0].expr.vartab;
	ASSERT_EQ(vt.size(), 1u);
	EXPECT_STREQ(acts[0].args[0].expr.strtab.c_str() + vt[0].dtdv_name, "x");
	EXPECT_EQ(vt[0].dtdv_flags & DIFV_F_MOD, DIFV_F_MOD);
}

TEST(compile, variables_shared_across_clauses_and_inputs)
{
	dt::compiler::input a, b;
	a.k = b.k = dt::compiler::input::kind::name;
	a.text = "BEGIN { x = 1; @n = count(); }";
	b.text = "END { trace(x); @n = count(); }";
	program p = dt::compiler::compile({a, b}, dt::test::default_settings());
	ASSERT_EQ(p.clauses.size(), 2u);
	EXPECT_EQ(p.aggregations.size(), 1u);
	const auto &ld = p.clauses[1].actions[0].args[0].expr;
	EXPECT_TRUE(has_op(ld, DIF_OP_LDGS));
	EXPECT_EQ(DIF_INSTR_VAR(ld.text[0]), DIF_VAR_OTHER_UBASE);
}

TEST(compile, macro_variables)
{
	auto s = dt::test::default_settings();
	s.macro_args = {"x.d", "42", "hello"};
	s.target = 1234;
	program p = compile_n("BEGIN { trace($1); trace($$2); trace($target); }", s);
	const auto &acts = p.clauses[0].actions;
	EXPECT_EQ(run(acts[0].args[0].expr), 42u);
	EXPECT_EQ(acts[1].args[0].type.k, dt::value_type::kind::string);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(run(acts[1].args[0].expr))), "hello");
	EXPECT_EQ(run(acts[2].args[0].expr), 1234u);
	s.options["argref"] = ""; // $1 and $2 unused here (else D_MACRO_UNUSED)
	program q = compile_n("pid$target:::entry { }", s);
	EXPECT_EQ(q.clauses[0].descs[0].provider, "pid1234");
}

TEST(compile, stack_ustack_and_symbol_records)
{
	// ustackbytes=0: pcs (the default copies the stack: options_compile_test).
	program p = compile_n("#pragma D option ustackbytes=0\n"
			      "BEGIN { stack(); ustack(5); sym(arg0); usym(arg1); }");
	const auto &a = p.clauses[0].actions;
	EXPECT_EQ(a[0].kind, DTRACEACT_STACK);
	EXPECT_EQ(a[0].nframes, 20u);
	EXPECT_EQ(a[0].args[0].size, 160u);
	EXPECT_EQ(a[0].args[0].offset, 16u);
	EXPECT_EQ(a[1].kind, DTRACEACT_USTACK);
	EXPECT_EQ(a[1].nframes, 5u);
	EXPECT_EQ(a[1].args[0].size, 48u);
	EXPECT_EQ(a[2].kind, DTRACEACT_SYM);
	EXPECT_EQ(a[2].args[0].type.k, dt::value_type::kind::sym);
	EXPECT_EQ(a[3].kind, DTRACEACT_USYM);
	EXPECT_EQ(a[3].args[0].size, 16u);
}

TEST(compile, printa_clear_trunc_normalize_setopt)
{
	program p = compile_n(
		"BEGIN { @a[1] = sum(2); printa(\"%d %@d\\n\", @a); printa(@a); "
		"clear(@a); trunc(@a, 5); trunc(@a); normalize(@a, 1000); denormalize(@a);"
		"setopt(\"quiet\"); }");
	const auto &a = p.clauses[0].actions;
	EXPECT_EQ(a[1].kind, DTRACEACT_PRINTA);
	EXPECT_EQ(a[1].format, "%d %@d\n");
	EXPECT_EQ(a[1].aggs, std::vector<uint32_t>{1});
	EXPECT_EQ(a[2].kind, DTRACEACT_PRINTA);
	EXPECT_EQ(a[3].libact, DT_ACT_CLEAR);
	EXPECT_EQ(a[4].libact, DT_ACT_TRUNC);
	EXPECT_EQ(run(a[4].args[0].expr), 5u);
	EXPECT_EQ(run(a[5].args[0].expr), 0u);
	EXPECT_EQ(a[6].libact, DT_ACT_NORMALIZE);
	EXPECT_EQ(a[7].libact, DT_ACT_DENORMALIZE);
	EXPECT_EQ(a[8].libact, DT_ACT_SETOPT);
}

TEST(compile, speculations)
{
	program p = compile_n("BEGIN { self->s = speculation(); } "
			      "END /self->s/ { speculate(self->s); printf(\"x\"); } "
			      "ERROR { commit(1); }");
	EXPECT_TRUE(p.clauses[1].speculative);
	EXPECT_EQ(p.clauses[1].actions[0].kind, DTRACEACT_SPECULATE);
	EXPECT_EQ(p.clauses[2].actions[0].kind, DTRACEACT_COMMIT);
	const auto &call = p.clauses[0].actions[0].args[0].expr;
	EXPECT_TRUE(has_op(call, DIF_OP_CALL));
}

TEST(compile, destructive_actions_need_w)
{
	auto s = dt::test::default_settings();
	s.destructive = true;
	program p = compile_n("BEGIN { raise(9); stop(); system(\"echo %d\", 1); chill(10); }", s);
	EXPECT_EQ(p.clauses[0].actions[0].kind, DTRACEACT_RAISE);
	EXPECT_EQ(p.clauses[0].actions[1].kind, DTRACEACT_STOP);
	EXPECT_EQ(p.clauses[0].actions[2].kind, DTRACEACT_SYSTEM);
	EXPECT_EQ(p.clauses[0].actions[3].kind, DTRACEACT_CHILL);
}

TEST(compile, registry_matches_and_types_builtin_probes)
{
	dt::provider_registry reg({}, {}, [](const std::string &) {});
	auto s = dt::test::default_settings();
	s.registry = &reg;
	program p = compile_n("dtrace:::BEGIN, END { trace(1); }", s);
	EXPECT_EQ(p.clauses[0].descs.size(), 2u);
}

TEST(compile, struct_types_and_member_loads)
{
	program p = compile_s("struct foo { char c; short s; int i; long l; unsigned char u; };\n"
			      "typedef struct foo foo_t;\n"
			      "BEGIN { trace(sizeof (struct foo)); trace(offsetof(foo_t, l));\n"
			      "trace(((foo_t *)arg0)->s); trace(((struct foo *)arg0)->u); }\n");
	const auto &a = p.clauses[0].actions;
	EXPECT_EQ(run(a[0].args[0].expr), 24u);
	EXPECT_EQ(a[0].args[0].size, 8u); // size_t
	EXPECT_EQ(run(a[1].args[0].expr), 8u);
	EXPECT_TRUE(has_op(a[2].args[0].expr, DIF_OP_LDSH));
	EXPECT_EQ(a[2].args[0].size, 2u);
	EXPECT_TRUE(has_op(a[3].args[0].expr, DIF_OP_LDUB));
	EXPECT_FALSE(a[3].args[0].type.is_signed);
}

TEST(compile, inline_and_enum_constants)
{
	program p = compile_s("enum e { A, B = 5, C };\ninline int X = 7 * 6;\n"
			      "BEGIN { trace(C); trace(X); trace(B + X); }\n");
	const auto &a = p.clauses[0].actions;
	EXPECT_EQ(run(a[0].args[0].expr), 6u);
	EXPECT_EQ(run(a[1].args[0].expr), 42u);
	EXPECT_EQ(run(a[2].args[0].expr), 47u);
}

TEST(compile, cpp_preprocessing)
{
	auto s = dt::test::default_settings();
	s.cpp = true;
	s.cpp_args = {"-DVAL=17"};
	program p = compile_s("#define TWICE(x) ((x) * 2)\nBEGIN\n{\n\ttrace(TWICE(VAL));\n}\n", s);
	EXPECT_EQ(run(p.clauses[0].actions[0].args[0].expr), 34u);
	EXPECT_EQ(p.clauses[0].line, 2u);
}

} // namespace

namespace {

TEST(parse, consecutive_pragmas_after_interpreter_line)
{
	dt::program p = compile_s("#!/usr/sbin/dtrace -qs\n#pragma D option quiet\n"
				  "#pragma D option switchrate=10hz\n#pragma D option bufsize=1m\n"
				  "BEGIN {}\n");
	EXPECT_EQ(p.option("quiet"), "");
	EXPECT_EQ(p.option("switchrate"), "10hz");
	EXPECT_EQ(p.option("bufsize"), "1m");
}

TEST(parse, declarations_types_and_expressions)
{
	dt::program p = compile_s(R"(
typedef struct point {
	int x;
	int y;
	struct point *next;
	char name[16];
	union { long l; char c[8]; } u;
	enum color { RED, GREEN = 4, BLUE } col;
} point_t;

struct pinfo { int px; };
translator struct pinfo < point_t *P > { px = P->x; };
provider myprov { probe fire(int); };

inline int LIMIT = 100;
int counter;
self string tname;
string names[int];
this int tmp;

BEGIN
{
	p = (point_t *)arg0;
	trace(p->x + p->y);
	trace(p->next->next->y);
	trace(stringof(p->name));
	trace(p->u.l);
	trace(p->col == BLUE);
	trace(sizeof (point_t));
	trace(offsetof(point_t, name));
	trace((*p).y);
	trace(&p->y);
	counter++;
	counter += LIMIT;
	self->tname = execname;
	names[1] = "one";
	trace(names[1]);
	this->tmp = 5;
	trace(this->tmp << 2);
	x = p->name[3];
	trace(-x);
	trace(~0ULL);
	trace(0x7fffffff + 1);
	trace('a' + 1);
	trace("a\tb\"c\\");
	trace(1 ? "yes" : "no");
	trace((unsigned short)-1);
	trace(0777);
	trace(10L * 3UL);
}
)");
	const auto &a = p.clauses.at(0).actions;
	auto value_of = [&](size_t i) { return dt::test::run(a.at(i).args.at(0).expr); };
	// sizeof (point_t): 4+4+8+16+8+4 (+4 padding) = 48
	EXPECT_EQ(value_of(6), 48u);
	EXPECT_EQ(value_of(7), 16u);
	// trace(0x7fffffff + 1) is an int: 4 bytes recording INT_MIN
	size_t i_over = a.size() - 7;
	EXPECT_EQ(a[i_over].args[0].size, 4u);
	EXPECT_EQ(static_cast<int32_t>(value_of(i_over)), INT32_MIN);
	EXPECT_EQ(value_of(i_over + 1), 98u);
	EXPECT_EQ(std::string(reinterpret_cast<const char *>(value_of(i_over + 2))), "a\tb\"c\\");
	EXPECT_EQ(value_of(a.size() - 3), 0xffffu);
	EXPECT_EQ(value_of(a.size() - 2), 0777u);
	EXPECT_EQ(value_of(a.size() - 1), 30u);
	EXPECT_EQ(a[a.size() - 1].args[0].type.is_signed, false); // long * unsigned long
}

} // namespace

namespace {

TEST(compile, stacks_and_symbols_as_aggregation_keys_and_printf_args)
{
	dt::program p = dt::test::compile_n(
		"#pragma D option ustackbytes=0\n"
		"BEGIN { @a[stack()] = count(); @b[ustack(5), execname] = count(); "
		"@c[func(arg0)] = sum(1); @d[usym(arg1)] = count(); printf(\"%a %k\\n\", arg0, "
		"stack(3)); }");
	ASSERT_EQ(p.aggregations.size(), 4u);
	EXPECT_EQ(p.aggregations[0].keys[0].k, dt::value_type::kind::stack);
	EXPECT_EQ(p.aggregations[0].keys[0].size, 160u);
	EXPECT_EQ(p.aggregations[1].keys[0].k, dt::value_type::kind::ustack);
	EXPECT_EQ(p.aggregations[1].keys[0].size, 48u);
	EXPECT_EQ(p.aggregations[1].key_offsets, (std::vector<uint32_t>{0, 48}));
	EXPECT_EQ(p.aggregations[2].keys[0].k, dt::value_type::kind::sym);
	EXPECT_EQ(p.aggregations[3].keys[0].k, dt::value_type::kind::usym);
	EXPECT_EQ(p.aggregations[3].keys[0].size, 16u);
	// func(arg0): the key's DIF object computes the address
	const auto &c = p.clauses[0].actions[2].keys[0].expr;
	EXPECT_EQ(c.text[0], DIF_INSTR_LDV(DIF_OP_LDGS, DIF_VAR_ARG0, 1));
	const auto &pf = p.clauses[0].actions[4];
	ASSERT_EQ(pf.args.size(), 2u);
	EXPECT_EQ(pf.args[1].type.k, dt::value_type::kind::stack);
	EXPECT_EQ(pf.args[1].size, 24u);
	EXPECT_EQ(pf.args[1].offset, 24u);
	EXPECT_EQ(dt::test::error_of("BEGIN { x = stack(); }"),
		  "D_OP_ACT: in action list: stack( ) may not be used in an expression: it is an "
		  "action");
}

} // namespace

namespace {

struct xin {
	int32_t a;
	int32_t b;
};

TEST(compile, translators_and_xlate)
{
	static xin v{7, 35};
	std::string addr = std::to_string(reinterpret_cast<uintptr_t>(&v));
	dt::program p = dt::test::compile_s(
		"struct in { int a; int b; };\n"
		"struct out { long sum; int neg; };\n"
		"translator struct out < struct in *P > { sum = P->a + P->b; neg = -P->a; };\n"
		"BEGIN { trace(xlate<struct out *>((struct in *)" +
		addr +
		")->sum);\n"
		"trace(xlate<struct out>((struct in *)" +
		addr + ").neg); }\n");
	const auto &a = p.clauses[0].actions;
	EXPECT_EQ(dt::test::run(a[0].args[0].expr), 42u);
	EXPECT_EQ(a[0].args[0].size, 8u);
	EXPECT_EQ(static_cast<int32_t>(dt::test::run(a[1].args[0].expr)), -7);
	EXPECT_EQ(a[1].args[0].size, 4u);
	EXPECT_EQ(dt::test::error_of(
			  "struct o { int x; };\nBEGIN { trace(xlate<struct o *>(arg0)->x); "
			  "}\n",
			  true),
		  "D_XLATE_NONE: line 2: cannot translate from \"int64_t\" to \"struct o *\"");
	EXPECT_EQ(
		dt::test::error_of(
			"struct o { int x; };\ntranslator struct o < int P > { y = P; };\n", true),
		"D_XLATE_MEMB: line 2: translator member y is not a member of struct o");
}

// A type name may end in a function declarator (illumos' grammar:
// direct_abstract_declarator `function`): `int (void)` parses as a function
// type, of no size and no value, its parameters checked as a prototype's.
TEST(parse, type_name_with_a_function_declarator)
{
	using dt::test::error_of;
	EXPECT_EQ(
		error_of("BEGIN { trace(sizeof (int (void))); }"),
		"D_SIZEOF_TYPE: in action list: cannot apply sizeof to an operand of unknown size");
	EXPECT_EQ(error_of("BEGIN { trace((int (char *, ...))1); }"),
		  "D_CAST_INVAL: in action list: invalid cast expression: \"int\" to \"int ()\"");
	EXPECT_EQ(error_of("BEGIN { trace(sizeof (int (void, int))); }"),
		  "D_DECL_PROTO_VOID: void must be sole parameter");
	// A pointer to a function is still a pointer.
	dt::program p = dt::test::compile_n("BEGIN { trace(sizeof (int (*)(int))); }");
	EXPECT_EQ(dt::test::run(p.clauses[0].actions[0].args[0].expr), 8u);
	// In a translator the output type is such a type name: the input
	// written in parentheses is its parameter list, and the `{` that
	// follows is where the `<` was expected.
	EXPECT_EQ(error_of("struct i { int a; };\nstruct o { int b; };\n"
			   "translator struct o (struct i *p)\n{ b = p->a; };\n",
			   true),
		  "D_SYNTAX: line 4: syntax error near \"{\"");
}

} // namespace

namespace {

TEST(compile, d_library_directories_are_loaded_first)
{
	namespace fs = std::filesystem;
	fs::path dir = fs::temp_directory_path() / ("dt-dlib-" + std::to_string(getpid()));
	fs::create_directories(dir);
	std::ofstream(dir / "b.d") << "inline int LIBVAL = LIBBASE * 2;\n";
	std::ofstream(dir / "a.d")
		<< "#pragma D depends_on module kernel\ninline int LIBBASE = 21;\n";
	std::ofstream(dir / "ignored.txt") << "not D";
	auto s = dt::test::default_settings();
	s.libdirs = {dir.string()};
	dt::program p = dt::test::compile_n("BEGIN { trace(LIBVAL); }", s);
	EXPECT_EQ(dt::test::run(p.clauses[0].actions[0].args[0].expr), 42u);
	fs::remove_all(dir);
}

} // namespace

namespace {

TEST(compile, typedef_of_a_forward_declared_struct_sees_its_body)
{
	dt::program p = dt::test::compile_s(
		"typedef struct foo foo_t;\n"
		"struct foo { int a; long b; };\n"
		"BEGIN { trace(sizeof (foo_t)); trace(((foo_t *)arg0)->b); }\n");
	EXPECT_EQ(dt::test::run(p.clauses[0].actions[0].args[0].expr), 16u);
	EXPECT_TRUE(dt::test::has_op(p.clauses[0].actions[1].args[0].expr, DIF_OP_LDX));
}

} // namespace
