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

#include "ast.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dt::compiler {

struct macro_values {
	std::vector<std::string> args;		  // $0, $1 ...
	std::map<std::string, std::string> named; // target, pid, ppid, uid, gid, cwd ...
	bool defaultargs = false;		  // unset $N are 0 / ""
	mutable std::vector<bool> referenced;	  // set by parse(): which $N the text used
};

class parser_impl;

// Parse D source. `typedefs` names known to be types (shared across the
// inputs of one compilation: a typedef in one script is a type in the next).
[[nodiscard]] translation_unit parse(const std::string &src, const macro_values &macros,
				     std::set<std::string> &typedefs);

// The built-in type names every D program knows (typedefs of the C types).
[[nodiscard]] const std::set<std::string> &builtin_typedef_names();

} // namespace dt::compiler
