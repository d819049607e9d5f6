// SPDX-License-Identifier: MIT
//
// compiler/lex/lexer.hpp - pass 1: D source text -> tokens.
//
// The lexer is pulled by the parser. D's clause heads are lexed in a mode
// of their own (illumos' S2 state): a probe description such as
// `syscall::read:entry`, `profile-97` or `fbt:::*` is one token. The parser
// asks for it with next_probe_desc() where a clause may begin; everywhere
// else next() returns C tokens. `#pragma` lines become one token; cpp's
// line markers (`# 12 "file"`) set the line; a leading `#!` line is
// skipped. Macro variables ($1, $$1, $target ...) are tokens; the parser
// substitutes their values.
//
// Errors: fail(D_SYNTAX / D_CHR_* / D_STR_NL / D_INT_* ...) with the line.
#pragma once

#include "token.hpp"

#include <string>
#include <string_view>

namespace dt::compiler {

class lexer {
public:
	explicit lexer(std::string src);

	token next();
	// Skip blanks and comments; what begins there: '\0' at the end.
	char peek_char();
	// The identifier-like word that begins there ("" if none).
	std::string peek_word();
	// Lex one probe description (clause-head mode).
	token next_probe_desc();
	[[nodiscard]] uint32_t line() const { return line_; }
	// How deep in files that cpp included (-C) the text read so far lies:
	// 0 in the program's own text.
	[[nodiscard]] int include_depth() const { return include_depth_; }

private:
	void skip_blanks();
	void directive(); // a line beginning with '#'
	token number();
	token char_lit();
	token string_lit();
	uint64_t escape(std::string &out, bool in_char);
	char at(size_t off = 0) const { return pos_ + off < src_.size() ? src_[pos_ + off] : '\0'; }

	std::string src_;
	size_t pos_ = 0;
	uint32_t line_ = 1;
	bool line_start_ = true;
	std::string pending_pragma_;
	bool have_pragma_ = false;
	uint32_t pragma_line_ = 0;
	int include_depth_ = 0;
};

} // namespace dt::compiler
