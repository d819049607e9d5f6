// SPDX-License-Identifier: MIT
//
// compiler/parse/ast.hpp - pass 2's output: the D abstract syntax tree.
//
//   translation_unit
//     └── items[]   clause | declaration | inline | pragma | translator
//           clause: descs[] (as written), predicate expr?, statements[]
//
// Expressions are one node type (expr) whose kind says which fields are
// used. Sema (pass 3) fills the `sema` part of each expr in place: its D
// type and what an identifier resolved to, making the tree "typed" for
// codegen (pass 4). Types written in the source are kept unresolved
// (type_name) until sema.
#pragma once

#include "../lex/token.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dt::compiler {

struct ctype; // sema/types.hpp
using type_ref = std::shared_ptr<const ctype>;
struct expr;
using expr_ptr = std::unique_ptr<expr>;

struct decl_spec;

// A type written in an expression: (T) x, sizeof (T), xlate<T>, offsetof(T, m).
struct type_name {
	std::shared_ptr<decl_spec> spec;
	int ptrs = 0;
	std::vector<uint64_t> dims;
	std::vector<expr_ptr> dim_exprs;
	bool function = false; // `int (void)`: a function returning the rest
};

// One declarator: `*p`, `a[10]`, `x[string, int]`, or abstract (no name).
struct declarator {
	std::string name;
	int ptrs = 0;
	std::vector<expr_ptr> dims;	    // array dimensions, outermost first
	std::vector<type_name> keys;	    // associative array key types
	std::vector<std::string> key_names; // an inline's parameters: fds[int fd]
	bool assoc = false;
	bool function = false; // a function prototype (checked, not kept)
	expr_ptr bitfield;
	uint32_t line = 0;
};

// struct/union members: specifiers and their declarators.
struct member_decl {
	std::shared_ptr<decl_spec> spec;
	std::vector<declarator> decls;
};

// Declaration specifiers: `unsigned long`, `struct foo { ... }`, `self int`.
struct decl_spec {
	std::vector<std::string> words; // base type words in order (int, unsigned ...)
	std::string storage;		// typedef, self, this, static, extern, inline, ""
	std::string sou;		// "struct", "union", "enum" or ""
	std::string tag;		// the struct/union/enum tag ("" if anonymous)
	bool has_body = false;		// { members } / { enumerators } given
	std::vector<member_decl> members;
	std::vector<std::pair<std::string, expr_ptr>> enumerators;
	std::vector<uint32_t> enumerator_lines; // where each is checked (see parser)
	std::string typedef_name;		// a typedef name used as the type
	bool is_const = false;
	bool c_header = false; // a struct/union/enum of a file cpp included (-C)
	uint32_t line = 0;
};

enum class ek : uint8_t {
	int_lit,     // value, int_unsigned, int_long
	str_lit,     // name: the bytes
	ident,	     // name (also self / this before ->)
	tls_var,     // self->name
	local_var,   // this->name
	agg,	     // @name[kids...]
	unary,	     // op: minus plus tilde bang star(deref) amp(addr); kids[0]
	incdec,	     // op inc/dec, postfix flag; kids[0]
	binary,	     // op; kids[0], kids[1]
	assign,	     // op: assign or compound; kids[0] lvalue, kids[1]
	ternary,     // kids[0] ? kids[1] : kids[2]
	call,	     // name(kids...)
	index,	     // kids[0][kids[1..]]
	member,	     // kids[0].name
	arrow,	     // kids[0]->name
	cast,	     // (tname) kids[0]
	sizeof_type, // sizeof (tname)
	sizeof_expr, // sizeof kids[0]
	offsetof,    // offsetof(tname, name)
	stringof,    // stringof kids[0]
	xlate,	     // xlate<tname>(kids[0])
	comma,	     // kids[0], kids[1]
};

// Sema's annotations (pass 3 fills them; codegen reads them).
struct expr_sema {
	type_ref type;
	enum class ref : uint8_t {
		none,
		builtin,      // id: DIF_VAR_* read with ldgs
		global,	      // id: user global scalar
		tls,	      // id: self-> scalar
		local,	      // id: this-> scalar
		garray,	      // id: global associative array (index node)
		tarray,	      // id: self-> associative array (index node)
		args,	      // args[] (index node)
		uregs,	      // uregs[] (index node): id is the register's index
		inline_,      // an inline: `inl` is its expression
		constant,     // an enumerator or folded constant: value
		macro,	      // a macro variable already folded
		subr,	      // call: id is DIF_SUBR_*
		action,	      // call: an action (statement level only)
		xlate_arg,    // a translator input name (P): bound at code generation
		xlate_member, // member of a translated value: `inl` is its expression
		xlate,	      // xlate<T>(e) itself (only its members can be used)
		ksym,	      // a kernel symbol (`sym): value is its address
	} what = ref::none;
	uint32_t id = 0;
	int64_t value = 0;	   // constant value
	const expr *inl = nullptr; // inline's expression
	bool lvalue = false;
	uint8_t bit_off = 0; // a bit-field member (bit_size > 0): types.hpp member
	uint8_t bit_size = 0;
	bool is_const = false;	  // integer constant expression (value valid)
	bool cast_string = false; // char* treated as string (%s, stringof)
};

struct expr {
	ek kind = ek::int_lit;
	tk op = tk::eof;
	std::string name;
	uint64_t value = 0;
	bool int_unsigned = false;
	int int_long = 0;
	bool int_hexoct = false;
	bool postfix = false;
	std::vector<expr_ptr> kids;
	std::shared_ptr<type_name> tname;
	uint32_t line = 0;
	uint32_t height = 1; // of the tree below, this node included (parser-bounded)
	expr_sema s;
};

struct pdesc_text {
	std::string text; // as written, macros expanded
	uint32_t line = 0;
};

struct clause_ast {
	std::vector<pdesc_text> descs;
	expr_ptr predicate;
	std::vector<expr_ptr> stmts;
	uint32_t line = 0;
	uint32_t end_line = 0; // its closing brace (illumos' clause node line)
};

struct decl_ast {
	std::shared_ptr<decl_spec> spec;
	std::vector<declarator> decls;
	uint32_t line = 0;
	bool c_header = false; // from a file cpp included (-C): C's, not D's
};

struct inline_ast {
	std::shared_ptr<decl_spec> spec;
	declarator decl;
	expr_ptr value;
	uint32_t line = 0;
};

struct translator_ast {
	type_name out;
	type_name in;
	std::string in_name;
	std::vector<std::pair<std::string, expr_ptr>> members;
	uint32_t line = 0;
	uint32_t end_line = 0; // its closing `;`: illumos checks the output type there
};

struct item {
	enum class kind : uint8_t { clause, decl, inline_, pragma, translator, provider } k;
	std::unique_ptr<clause_ast> clause;
	std::unique_ptr<decl_ast> decl;
	std::unique_ptr<inline_ast> inl;
	std::unique_ptr<translator_ast> xl;
	std::string pragma; // the directive text after '#'
	uint32_t line = 0;
};

struct translation_unit {
	std::vector<item> items;
};

} // namespace dt::compiler
