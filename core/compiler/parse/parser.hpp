// SPDX-License-Identifier: MIT
//
// compiler/parse/parser.hpp - pass 2: tokens -> AST (parse/ast.hpp).
//
// A recursive-descent parser for the whole D grammar (illumos
// dt_grammar.y): clauses with comma-separated probe descriptions,
// predicates, statement lists; C expressions with C precedence plus D's
// ^^, @aggregations, self->/this->, sizeof, offsetof, stringof, xlate<T>;
// declarations (struct/union/enum/typedef, storage classes self/this),
// inline, translator, provider (skipped), #pragma lines.
//
// Macro variables ($1, $$1, $target, $pid ...) are replaced here by
// constants from `macros`, as illumos' lexer does.
//
// Errors: fail(D_SYNTAX, line, "syntax error near \"TOK\"") or "syntax
// error near end of input"; D_MACRO_UNDEF for a missing $N.
#pragma once

#include "../diag.hpp"
#include "ast.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dt::compiler {

struct macro_values {
	std::vector<std::string> args;		  // $0, $1 ...
	std::map<std::string, std::string> named; // target, pid, ppid, uid, gid, cwd ...
	bool defaultargs = false;		  // unset $N are 0 / ""
	bool pspec = false;		      // -x pspec: what may be a probe description is one
	mutable std::vector<bool> referenced; // set by parse(): which $N the text used
};

class parser_impl;

// Is this name a type outside the program, e.g. a kernel typedef (BTF)?
using extern_type_fn = std::function<bool(const std::string &)>;

// A parse (or lexical) error, with the top-level items read before it.
// illumos acts on each declaration, inline, translator and pragma as the
// grammar reduces it, so an error in one of those is reported before a
// syntax error further on; the driver checks `before` to do the same.
struct parse_error : d_error {
	parse_error(const d_error &e, std::shared_ptr<translation_unit> b)
		: d_error(e), before(std::move(b))
	{
	}
	std::shared_ptr<translation_unit> before;
};

// Parse D source. `typedefs` names known to be types (shared across the
// inputs of one compilation: a typedef in one script is a type in the next).
// `extern_type`, if given, is asked about an unknown identifier only where
// nothing but a type name can make sense of the tokens: `(name) operand`,
// `(name *...)` and `sizeof (name)` -- so that `(umode_t)x` works as it
// does in illumos, where the kernel's types are in D's scope, without
// loading kernel BTF for programs that never need it. A name it accepts
// joins `typedefs`. `from_file`: the text is a script file, whose clauses
// must each have a predicate or actions (a -n specifier need not).
[[nodiscard]] translation_unit parse(const std::string &src, const macro_values &macros,
				     std::set<std::string> &typedefs,
				     const extern_type_fn &extern_type = {},
				     bool from_file = false);

// The built-in type names every D program knows (typedefs of the C types).
[[nodiscard]] const std::set<std::string> &builtin_typedef_names();

} // namespace dt::compiler
