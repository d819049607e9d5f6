// SPDX-License-Identifier: MIT
//
// compiler/lex/token.hpp - D tokens (the lexer's output).
//
// A token is its kind, its text as written (for "syntax error near" and
// names), its value (integer and character constants; strings with escapes
// resolved in `text`) and its line.
#pragma once

#include <cstdint>
#include <string>

namespace dt::compiler {

enum class tk : uint16_t {
	eof,
	ident,	    // identifiers and keywords-that-are-types are resolved by the parser
	int_lit,    // value, is_unsigned/is_long from suffixes
	char_lit,   // value
	str_lit,    // text: the bytes, escapes resolved
	probe_desc, // text: one probe description as written (clause heads)
	pragma,	    // text: the whole line after '#'
	macro_var,  // $1, $target ...: text is the name without '$'
	macro_str,  // $$1: text is the name without "$$"
	agg,	    // @name or @: text is the name without '@'
	// punctuators
	lparen,
	rparen,
	lbrack,
	rbrack,
	lbrace,
	rbrace,
	comma,
	semi,
	colon,
	question,
	dot,
	arrow,
	plus,
	minus,
	star,
	slash,
	percent,
	amp,
	pipe,
	caret,
	tilde,
	bang,
	lt,
	gt,
	le,
	ge,
	eqeq,
	ne,
	land,
	lor,
	lxor,
	shl,
	shr,
	inc,
	dec,
	assign,
	add_eq,
	sub_eq,
	mul_eq,
	div_eq,
	mod_eq,
	and_eq_,
	or_eq_,
	xor_eq_,
	shl_eq,
	shr_eq,
	ellipsis,
};

struct token {
	tk kind = tk::eof;
	std::string text;     // as written (str_lit: resolved bytes)
	std::string spelling; // as written, for diagnostics
	uint64_t value = 0;
	bool is_unsigned = false;
	int long_count = 0;
	bool from_hex_or_octal = false;
	uint32_t line = 1;
};

} // namespace dt::compiler
