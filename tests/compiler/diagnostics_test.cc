// SPDX-License-Identifier: MIT
// Compiler diagnostics: tags and DTrace's wording (illumos dt_errtags.h,
// dt_parser.c, dt_cc.c), "line N: " for scripts, "in REGION: " for -n.
#include "helpers.hpp"

namespace {

using dt::test::error_of;

TEST(diagnostics, syntax_errors)
{
	EXPECT_EQ(error_of("BEGIN {"), "D_SYNTAX: syntax error near end of input");
	EXPECT_EQ(error_of("BEGIN\n{\n\tx = ;\n}\n", true),
		  "D_SYNTAX: line 3: syntax error near \";\"");
	EXPECT_EQ(error_of("BEGIN { trace(1) trace(2); }"),
		  "D_SYNTAX: syntax error near \"trace\"");
	EXPECT_EQ(error_of("BEGIN { x = 1 + ; }"), "D_SYNTAX: syntax error near \";\"");
	EXPECT_EQ(error_of("BEGIN /x/"), "D_IDENT_UNDEF: in predicate: failed to resolve x: "
					 "Unknown variable name");
}

// Nesting is bounded before it can exhaust the stack, whether the parser
// recurses (parentheses, unary operators, right-associative = and ?:) or
// loops (left-associative operators, postfix chains, comma lists).
TEST(diagnostics, nesting_too_deep)
{
	auto rep = [](const std::string &s, int n) {
		std::string r;
		for (int i = 0; i < n; i++)
			r += s;
		return r;
	};
	EXPECT_EQ(error_of("BEGIN { trace(" + rep("(-", 5000) + "1" + rep(")", 5000) + "); }"),
		  "D_SYNTAX: syntax error: yacc stack overflow");
	EXPECT_EQ(error_of("BEGIN { " + rep("x = ", 100000) + "1; }"),
		  "D_SYNTAX: syntax error: yacc stack overflow");
	EXPECT_EQ(error_of("BEGIN { x = " + rep("1 ? 2 : ", 100000) + "1; }"),
		  "D_SYNTAX: syntax error: yacc stack overflow");
	EXPECT_EQ(error_of("BEGIN { trace(" + rep("1 + ", 100000) + "1); }"),
		  "D_SYNTAX: syntax error: expression nested too deeply");
	EXPECT_EQ(error_of("BEGIN { x = y" + rep("[1]", 100000) + "; }"),
		  "D_SYNTAX: syntax error: expression nested too deeply");
	EXPECT_EQ(error_of("BEGIN { " + rep("x, ", 100000) + "x; }"),
		  "D_SYNTAX: syntax error: expression nested too deeply");
	// Deep but reasonable programs still compile.
	EXPECT_EQ(error_of("BEGIN { trace(" + rep("1 + ", 900) + "1); }"), "(compiled)");
	EXPECT_EQ(error_of("BEGIN { trace(" + rep("(", 300) + "1" + rep(")", 300) + "); }"),
		  "(compiled)");
}

TEST(diagnostics, undefined_identifier)
{
	EXPECT_EQ(error_of("BEGIN { trace(x); }"),
		  "D_IDENT_UNDEF: in action list: failed to resolve x: Unknown variable name");
	EXPECT_EQ(error_of("BEGIN\n{\n\ttrace(y);\n}\n", true),
		  "D_IDENT_UNDEF: line 3: failed to resolve y: Unknown variable name");
}

TEST(diagnostics, prototype_checks)
{
	EXPECT_EQ(error_of("BEGIN { trace(strlen(\"a\", \"b\")); }"),
		  "D_PROTO_LEN: in action list: strlen( ) prototype mismatch: 2 args passed, 1 "
		  "expected");
	EXPECT_EQ(error_of("BEGIN { trace(strlen(1)); }"),
		  "D_PROTO_ARG: in action list: strlen( ) argument #1 is incompatible with "
		  "prototype:\n\tprototype: char *\n\t argument: int");
	EXPECT_EQ(error_of("BEGIN { trace(substr(\"abc\")); }"),
		  "D_PROTO_LEN: in action list: substr( ) prototype mismatch: 1 arg passed, at "
		  "least 2 expected");
}

TEST(diagnostics, operators)
{
	EXPECT_EQ(error_of("BEGIN { trace(\"a\" + 1); }"),
		  "D_OP_ARITH: in action list: operator + requires operands of arithmetic type");
	EXPECT_EQ(error_of("BEGIN { trace(\"a\" == 1); }"),
		  "D_OP_INCOMPAT: in action list: operands have incompatible types: \"string\" == "
		  "\"int\"");
	EXPECT_EQ(error_of("BEGIN { x = 1; x = \"s\"; }"),
		  "D_OP_INCOMPAT: in action list: operands have incompatible types: \"int\" = "
		  "\"string\"");
	EXPECT_EQ(error_of("BEGIN { timestamp = 1; }"),
		  "D_OP_WRITE: in action list: operator = can only be applied to a writable "
		  "variable");
}

TEST(diagnostics, printf_format_checks)
{
	EXPECT_EQ(error_of("BEGIN { printf(1); }"),
		  "D_PRINTF_ARG_FMT: in action list: printf( ) argument #1 is incompatible with "
		  "prototype:\n\tprototype: string constant\n\t argument: int");
	std::string e = error_of("BEGIN { printf(\"%s\\n\", 1); }");
	EXPECT_EQ(e.rfind("D_PRINTF_ARG_TYPE: in action list: printf( ) argument #2 is "
			  "incompatible with conversion #1 prototype:",
			  0),
		  0u)
		<< e;
	e = error_of("BEGIN { printf(\"%d %d\\n\", 1); }");
	EXPECT_EQ(e.rfind("D_PRINTF_ARG_PROTO: ", 0), 0u) << e;
	e = error_of("BEGIN { printf(\"%99999999999d\", 1); }");
	EXPECT_NE(e.find("format conversion #1 has a width or precision larger than 67108864"),
		  std::string::npos)
		<< e;
	e = error_of("BEGIN { printf(\"%.5555555555s\", \"a\"); }");
	EXPECT_NE(e.find("larger than 67108864"), std::string::npos) << e;
	EXPECT_EQ(error_of("BEGIN { printf(\"%10000000d %.67108864s\", 1, \"a\"); }"),
		  "(compiled)");
	e = error_of("BEGIN { printf(\"%d\\n\", 1, 2); }");
	EXPECT_EQ(e.rfind("D_PRINTF_ARG_EXTRA: ", 0), 0u) << e;
}

TEST(diagnostics, aggregation_redefined)
{
	EXPECT_EQ(error_of("BEGIN\n{\n\t@a = count();\n\t@a = sum(1);\n}\n", true),
		  "D_AGG_REDEF: line 4: aggregation redefined: @a\n\t current: @a = sum( )\n"
		  "\tprevious: @a = count( ) : line 3");
	EXPECT_EQ(error_of("BEGIN { @a = trace(1); }"),
		  "D_AGG_FUNC: in action list: @a must be assigned the result of an aggregating "
		  "function");
	EXPECT_EQ(error_of("BEGIN { @a = lquantize(1, 10, 5); }").substr(0, 19),
		  "D_LQUANT_MISMATCH: ");
}

TEST(diagnostics, probe_description_matches_nothing)
{
	dt::provider_registry reg({}, {}, [](const std::string &) {});
	auto s = dt::test::default_settings();
	s.registry = &reg;
	EXPECT_EQ(error_of("nosuch:::probe { }", false, s),
		  "D_PDESC_ZERO: probe description nosuch:::probe does not match any probes");
	EXPECT_EQ(error_of("BEGIN {}\nfoo:bar:baz:qux {}\n", true, s),
		  "D_PDESC_ZERO: line 2: probe description foo:bar:baz:qux does not match any "
		  "probes");
	s.zero_ok = true;
	EXPECT_EQ(error_of("nosuch:::probe { }", false, s), "(compiled)");
}

TEST(diagnostics, destructive_and_refused_actions)
{
	// Destructive actions compile without -w: the engine refuses them at
	// go() (core/program/destructive.cc), as illumos' kernel does.
	EXPECT_EQ(error_of("BEGIN { raise(9); }"), "(compiled)");
	EXPECT_EQ(error_of("BEGIN { copyout(0, 0, 0); }"), "(compiled)");
	auto s = dt::test::default_settings();
	s.destructive = true;
	EXPECT_EQ(error_of("BEGIN { panic(); }", false, s),
		  "D_ACT_UNSUP: in action list: panic( ) is not supported by the user engine");
}

TEST(diagnostics, speculation_rules)
{
	EXPECT_EQ(error_of("BEGIN { trace(1); speculate(1); }"),
		  "D_SPEC_DREC: in action list: speculate( ) may not follow data-recording "
		  "action(s)");
	EXPECT_EQ(error_of("BEGIN { speculate(1); @a = count(); }"),
		  "D_AGG_SPEC: in action list: aggregating actions may not follow speculate( )");
	EXPECT_EQ(error_of("BEGIN { speculate(1); exit(0); }"),
		  "D_EXIT_SPEC: in action list: exit( ) may not follow speculate( )");
}

TEST(diagnostics, macro_argument_undefined)
{
	EXPECT_EQ(error_of("BEGIN { trace($3); }"),
		  "D_MACRO_UNDEF: macro argument $3 is not defined");
	auto s = dt::test::default_settings();
	s.options["defaultargs"] = "";
	EXPECT_EQ(error_of("BEGIN { trace($3); }", false, s), "(compiled)");
}

TEST(diagnostics, pragmas)
{
	EXPECT_EQ(error_of("#pragma D option nosuchoption=1\nBEGIN {}\n", true),
		  "D_PRAGMA_OPTSET: line 1: failed to set option 'nosuchoption' to '1': Invalid "
		  "option name");
	EXPECT_EQ(error_of("#pragma D option nosuchoption\nBEGIN {}\n", true),
		  "D_PRAGMA_OPTSET: line 1: failed to set option 'nosuchoption': Invalid option "
		  "name");
	// illumos dt_pragma(): a null "#pragma D" is ignored; an unknown D
	// pragma and an unknown control directive are not.
	EXPECT_EQ(error_of("#pragma D\nBEGIN {}\n", true), "(compiled)");
	EXPECT_EQ(error_of("#pragma D nosuch\nBEGIN {}\n", true),
		  "D_PRAGMA_INVAL: line 1: invalid D pragma: nosuch");
	EXPECT_EQ(error_of("#nosuch\nBEGIN {}\n", true),
		  "D_PRAGCTL_INVAL: line 1: invalid control directive: #nosuch");
}

TEST(diagnostics, extraneous_macro_argument)
{
	// illumos dt_compile(): the last operand must be referenced, unless
	// -x argref; the line is where the lexer stopped (end of the text).
	auto s = dt::test::default_settings();
	s.macro_args = {"x.d", "42", "hello"};
	EXPECT_EQ(error_of("BEGIN\n{\n\ttrace($1);\n}\n", true, s),
		  "D_MACRO_UNUSED: line 5: extraneous argument 'hello' ($2 is not referenced)");
	EXPECT_EQ(error_of("BEGIN { trace($$2); }", false, s), "(compiled)");
	s.options["argref"] = "";
	EXPECT_EQ(error_of("BEGIN { trace($1); }", false, s), "(compiled)");
}

TEST(diagnostics, deep_operands_are_evaluated_first)
{
	// A right-nested sum nine deep: the deeper operand goes first, so
	// two registers suffice however deep it nests.
	std::string e = "arg0";
	for (int i = 1; i < 9; i++)
		e = "arg" + std::to_string(i % 10) + " + (" + e + ")";
	EXPECT_EQ(error_of("BEGIN { trace(" + e + "); }"), "(compiled)");
}

TEST(diagnostics, more_values_than_registers_are_spilled)
{
	// A balanced tree of depth 7 has eight values live at once whatever
	// the order: more than %r1-%r7, so one operand waits in a spill slot
	// (tests/golden: the value it computes).
	std::string e = "arg0";
	for (int i = 0; i < 7; i++)
		e = "(" + e + ") + (" + e + ")";
	EXPECT_EQ(error_of("BEGIN { trace(" + e + "); }"), "(compiled)");
}

TEST(diagnostics, too_many_tuple_keys)
{
	EXPECT_EQ(error_of("BEGIN { a[1, 2, 3, 4, 5, 6, 7, 8, 9] = 1; }"),
		  "EDT_NOTUPREG: Insufficient tuple registers to generate code");
}

TEST(diagnostics, cpp_failure)
{
	auto s = dt::test::default_settings();
	s.cpp = true;
	EXPECT_EQ(error_of("#error boom\nBEGIN {}\n", true, s),
		  "EDT_CPPERR: Preprocessor failed to process input program");
}

TEST(diagnostics, members_and_pointers)
{
	EXPECT_EQ(error_of("struct s { int a; };\nBEGIN { trace(((struct s *)arg0)->b); }\n", true),
		  "D_TYPE_MEMBER: line 2: b is not a member of struct s");
	EXPECT_EQ(error_of("BEGIN { trace(*arg0); }"),
		  "D_DEREF_NONPTR: in action list: cannot dereference non-pointer type");
}

} // namespace
