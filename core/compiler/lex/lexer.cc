// SPDX-License-Identifier: MIT
//
// compiler/lex/lexer.cc - the D lexer (illumos dt_lex.l in hand-written
// form): C tokens, D's extra tokens (@agg, $macro, `->`, probe
// descriptions), integer/char/string constants with C escapes and suffixes.
#include "lexer.hpp"

#include "../diag.hpp"

#include <cctype>
#include <limits>

namespace dt::compiler {

namespace {

// A line number from a directive, clamped (never throws).
uint32_t line_number(const std::string &s)
{
	uint64_t v = 0;
	for (char c : s) {
		if (!std::isdigit(static_cast<unsigned char>(c)))
			break;
		v = v * 10 + static_cast<uint64_t>(c - '0');
		if (v > UINT32_MAX / 2)
			return UINT32_MAX / 2;
	}
	return static_cast<uint32_t>(v);
}

// Identifiers may hold D's scoping operator: `sym, vmlinux`sym (illumos
// RGX_IDENT); sema resolves such names as kernel symbols.
bool is_ident_start(char c)
{
	return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '`';
}

bool is_ident_char(char c)
{
	return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '`';
}

// Characters of a probe description (illumos RGX_PSPEC plus globs).
bool is_pdesc_char(char c)
{
	if (std::isalnum(static_cast<unsigned char>(c)))
		return true;
	switch (c) {
	case '_':
	case '-':
	case '.':
	case ':':
	case '*':
	case '?':
	case '[':
	case ']':
	case '!':
	case '\\':
	case '$':
	case '+':
	case '`':
	case '~':
	case '&':
	case '^':
	case '%':
	case '=':
	case '@':
	case '<':
	case '>': return true;
	default: return false;
	}
}

} // namespace

lexer::lexer(std::string src) : src_(std::move(src))
{
	// A leading interpreter line (#!/usr/sbin/dtrace -s) is not D.
	if (src_.size() >= 2 && src_[0] == '#' && src_[1] == '!') {
		while (pos_ < src_.size() && src_[pos_] != '\n')
			pos_++;
	}
}

void lexer::directive()
{
	// At '#' at the start of a line.
	size_t start = pos_;
	uint32_t start_line = line_;
	pos_++;
	while (at() == ' ' || at() == '\t')
		pos_++;
	size_t end = pos_;
	while (end < src_.size() && src_[end] != '\n')
		end++;
	std::string body = src_.substr(pos_, end - pos_);
	pos_ = end;
	// A control line ends at a newline: illumos' lexer acts on it there.
	if (end >= src_.size())
		fail(tag::D_SYNTAX, line_, "end-of-file encountered before end of control line");
	if (!body.empty() && std::isdigit(static_cast<unsigned char>(body[0]))) {
		// cpp line marker: # N "file" flags; the next line is N. Flag 1
		// enters an included file, 2 returns from one (illumos
		// dt_pragma_line(): pcb_idepth).
		line_ = line_number(body) - 1;
		size_t q = body.rfind('"');
		if (q != std::string::npos && body.find('"') != q) {
			std::string flags = " " + body.substr(q + 1) + " ";
			if (flags.find(" 1 ") != std::string::npos)
				include_depth_++;
			else if (flags.find(" 2 ") != std::string::npos && include_depth_ > 0)
				include_depth_--;
		}
		return;
	}
	if (body.rfind("line", 0) == 0 && body.size() > 4 && (body[4] == ' ' || body[4] == '\t')) {
		line_ = line_number(body.substr(5)) - 1;
		return;
	}
	if (body.empty())
		return;
	if (body.rfind("pragma", 0) == 0 || body.rfind("ident", 0) == 0 ||
	    body.rfind("error", 0) == 0) {
		pending_pragma_ = body;
		have_pragma_ = true;
		pragma_line_ = start_line;
		return;
	}
	(void)start;
	std::string word;
	for (char c : body) {
		if (!is_ident_char(c))
			break;
		word += c;
	}
	fail(tag::D_PRAGCTL_INVAL, start_line, "invalid control directive: #" + word);
}

void lexer::skip_blanks()
{
	if (have_pragma_)
		return; // a directive is waiting to be taken
	for (;;) {
		char c = at();
		if (c == '\n') {
			line_++;
			pos_++;
			line_start_ = true;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			pos_++;
		} else if (c == '/' && at(1) == '*') {
			pos_ += 2;
			while (pos_ < src_.size() && !(at() == '*' && at(1) == '/')) {
				if (at() == '\n')
					line_++;
				pos_++;
			}
			// illumos names the line the input ended on.
			if (pos_ >= src_.size())
				fail(tag::D_SYNTAX, line_,
				     "end-of-file encountered before matching */");
			pos_ += 2;
			line_start_ = false;
		} else if (c == '/' && at(1) == '/') {
			while (pos_ < src_.size() && at() != '\n')
				pos_++;
		} else if (c == '#' && line_start_) {
			directive();
			if (have_pragma_)
				return;
		} else {
			line_start_ = false;
			return;
		}
	}
}

char lexer::peek_char()
{
	skip_blanks();
	if (have_pragma_)
		return '#';
	return at();
}

std::string lexer::peek_word()
{
	skip_blanks();
	if (have_pragma_)
		return "";
	size_t p = pos_;
	if (p >= src_.size() || !is_ident_start(src_[p]))
		return "";
	while (p < src_.size() && is_ident_char(src_[p]))
		p++;
	return src_.substr(pos_, p - pos_);
}

token lexer::next_probe_desc()
{
	skip_blanks();
	token t;
	t.line = line_;
	if (have_pragma_)
		return next();
	size_t start = pos_;
	while (pos_ < src_.size() && is_pdesc_char(src_[pos_])) {
		// A '/' never belongs to a description: it opens a predicate.
		pos_++;
	}
	if (pos_ == start)
		return next();
	t.kind = tk::probe_desc;
	t.text = src_.substr(start, pos_ - start);
	t.spelling = t.text;
	return t;
}

uint64_t lexer::escape(std::string &out, bool in_char)
{
	// At the character after '\'.
	char c = at();
	pos_++;
	switch (c) {
	case 'n': out += '\n'; return '\n';
	case 't': out += '\t'; return '\t';
	case 'r': out += '\r'; return '\r';
	case 'a': out += '\a'; return '\a';
	case 'b': out += '\b'; return '\b';
	case 'f': out += '\f'; return '\f';
	case 'v': out += '\v'; return '\v';
	case '\\': out += '\\'; return '\\';
	case '"': out += '"'; return '"';
	case '\'':
	case '?':
		if (!in_char) { // illumos stresc2chr(): only \" and \\ stand for themselves
			out += '\\';
			out += c;
			return static_cast<unsigned char>(c);
		}
		out += c;
		return static_cast<unsigned char>(c);
	case 'x': {
		unsigned v = 0;
		int n = 0;
		while (std::isxdigit(static_cast<unsigned char>(at())) && n < 2) {
			char h = at();
			v = v * 16 +
			    static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(h))
							  ? h - '0'
							  : (std::tolower(h) - 'a' + 10));
			pos_++;
			n++;
		}
		out += static_cast<char>(v);
		return v;
	}
	default:
		if (c >= '0' && c <= '7') {
			unsigned v = static_cast<unsigned>(c - '0');
			int n = 1;
			while (at() >= '0' && at() <= '7' && n < 3) {
				v = v * 8 + static_cast<unsigned>(at() - '0');
				pos_++;
				n++;
			}
			out += static_cast<char>(v);
			return v & 0xff;
		}
		// illumos stresc2chr() keeps an unknown escape in a string as
		// written, backslash and all; a character constant takes the
		// character itself.
		if (!in_char)
			out += '\\';
		out += c;
		return static_cast<unsigned char>(c);
	}
}

token lexer::char_lit()
{
	token t;
	t.kind = tk::char_lit;
	t.line = line_;
	size_t start = pos_;
	pos_++; // '
	std::string bytes;
	while (at() != '\'') {
		// As illumos' lexer, which counts the newline before it reports:
		// the error names the line after the open constant.
		if (at() == '\n' || at() == '\0')
			fail(tag::D_CHR_NL, line_ + (at() == '\n'),
			     "newline encountered in character constant");
		if (at() == '\\') {
			pos_++;
			escape(bytes, true);
		} else {
			bytes += at();
			pos_++;
		}
	}
	pos_++;
	t.spelling = src_.substr(start, pos_ - start);
	if (bytes.empty())
		fail(tag::D_CHR_NULL, t.line, "empty character constant");
	if (bytes.size() > sizeof(uint64_t)) // illumos: sizeof (yylval.l_int)
		fail(tag::D_CHR_OFLOW, t.line, "character constant is too long");
	// Multi-character constants as illumos: big-endian packing; a single
	// char is sign-extended from char.
	if (bytes.size() == 1) {
		t.value = static_cast<uint64_t>(
			static_cast<int64_t>(static_cast<signed char>(bytes[0])));
	} else {
		uint64_t v = 0;
		for (char b : bytes)
			v = (v << 8) | static_cast<unsigned char>(b);
		t.value = v;
	}
	return t;
}

token lexer::string_lit()
{
	token t;
	t.kind = tk::str_lit;
	t.line = line_;
	size_t start = pos_;
	pos_++;
	while (at() != '"') {
		if (at() == '\n' || at() == '\0') // the line after, as for D_CHR_NL
			fail(tag::D_STR_NL, line_ + (at() == '\n'),
			     "newline encountered in string literal");
		if (at() == '\\') {
			pos_++;
			if (at() == '\n') { // line continuation
				pos_++;
				line_++;
				continue;
			}
			escape(t.text, false);
		} else {
			t.text += at();
			pos_++;
		}
	}
	pos_++;
	t.spelling = src_.substr(start, pos_ - start);
	return t;
}

token lexer::number()
{
	token t;
	t.kind = tk::int_lit;
	t.line = line_;
	size_t start = pos_;
	unsigned base = 10;
	if (at() == '0' && (at(1) == 'x' || at(1) == 'X')) {
		base = 16;
		pos_ += 2;
	} else if (at() == '0') {
		base = 8;
	}
	size_t digits = pos_;
	// illumos RGX_INT: the digits, then [uU] and [lL] suffixes; a letter
	// after them starts the next token (so `0abc` is 0 then abc). A '.'
	// followed by a digit makes a floating-point constant, refused below.
	auto digit = [&](char c) {
		return base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0
				  : std::isdigit(static_cast<unsigned char>(c)) != 0;
	};
	while (digit(at()))
		pos_++;
	if (at() == '.' && std::isdigit(static_cast<unsigned char>(at(1)))) {
		while (std::isalnum(static_cast<unsigned char>(at())) || at() == '.')
			pos_++;
	} else {
		for (int n = 0; n < 3 && (at() == 'u' || at() == 'U' || at() == 'l' || at() == 'L');
		     n++)
			pos_++;
	}
	std::string all = src_.substr(start, pos_ - start);
	t.spelling = all;
	std::string body = src_.substr(digits, pos_ - digits);
	// Suffixes u U l L ll LL in any order.
	size_t end = body.size();
	while (end > 0) {
		char c = body[end - 1];
		if (c == 'u' || c == 'U') {
			t.is_unsigned = true;
			end--;
		} else if (c == 'l' || c == 'L') {
			t.long_count++;
			end--;
		} else {
			break;
		}
	}
	body.resize(end);
	if (body.empty() && base == 16)
		fail(tag::D_INT_DIGIT, t.line,
		     "constant " + all + " contains invalid digit " + all.substr(1, 1));
	unsigned __int128 v = 0;
	for (char c : body) {
		unsigned d;
		if (std::isdigit(static_cast<unsigned char>(c)))
			d = static_cast<unsigned>(c - '0');
		else if (std::isxdigit(static_cast<unsigned char>(c)))
			d = static_cast<unsigned>(std::tolower(c) - 'a' + 10);
		else
			fail(tag::D_SYNTAX, t.line, "syntax error near \"" + all + "\"");
		if (d >= base)
			fail(tag::D_INT_DIGIT, t.line,
			     "constant " + all + " contains invalid digit " + std::string(1, c));
		v = v * base + d;
		if (v > std::numeric_limits<uint64_t>::max())
			fail(tag::D_INT_OFLOW, t.line,
			     "constant " + all + " results in integer overflow");
	}
	t.value = static_cast<uint64_t>(v);
	t.from_hex_or_octal = base != 10;
	return t;
}

token lexer::next()
{
	skip_blanks();
	token t;
	t.line = line_;
	if (have_pragma_) {
		have_pragma_ = false;
		t.kind = tk::pragma;
		t.text = pending_pragma_;
		t.spelling = "#" + pending_pragma_;
		t.line = pragma_line_;
		line_start_ = true;
		return t;
	}
	char c = at();
	if (c == '\0') {
		t.kind = tk::eof;
		return t;
	}
	if (is_ident_start(c)) {
		size_t s = pos_;
		while (is_ident_char(at()))
			pos_++;
		t.kind = tk::ident;
		t.text = src_.substr(s, pos_ - s);
		t.spelling = t.text;
		return t;
	}
	if (std::isdigit(static_cast<unsigned char>(c)))
		return number();
	if (c == '\'')
		return char_lit();
	if (c == '"')
		return string_lit();
	if (c == '@') {
		size_t s = ++pos_;
		while (is_ident_char(at()))
			pos_++;
		t.kind = tk::agg;
		t.text = src_.substr(s, pos_ - s);
		t.spelling = "@" + t.text;
		return t;
	}
	if (c == '$') {
		bool str = at(1) == '$';
		size_t s = pos_ + (str ? 2 : 1);
		size_t p = s;
		while (p < src_.size() && is_ident_char(src_[p]))
			p++;
		if (p == s) {
			pos_++;
			fail(tag::D_SYNTAX, t.line, "syntax error near \"$\"");
		}
		pos_ = p;
		t.kind = str ? tk::macro_str : tk::macro_var;
		t.text = src_.substr(s, p - s);
		t.spelling = (str ? "$$" : "$") + t.text;
		return t;
	}
	struct punct {
		const char *s;
		tk k;
	};
	static const punct puncts[] = {
		{"...", tk::ellipsis}, {"<<=", tk::shl_eq}, {">>=", tk::shr_eq}, {"->", tk::arrow},
		{"++", tk::inc},       {"--", tk::dec},	    {"<<", tk::shl},	 {">>", tk::shr},
		{"<=", tk::le},	       {">=", tk::ge},	    {"==", tk::eqeq},	 {"!=", tk::ne},
		{"&&", tk::land},      {"||", tk::lor},	    {"^^", tk::lxor},	 {"+=", tk::add_eq},
		{"-=", tk::sub_eq},    {"*=", tk::mul_eq},  {"/=", tk::div_eq},	 {"%=", tk::mod_eq},
		{"&=", tk::and_eq_},   {"|=", tk::or_eq_},  {"^=", tk::xor_eq_}, {"(", tk::lparen},
		{")", tk::rparen},     {"[", tk::lbrack},   {"]", tk::rbrack},	 {"{", tk::lbrace},
		{"}", tk::rbrace},     {",", tk::comma},    {";", tk::semi},	 {":", tk::colon},
		{"?", tk::question},   {".", tk::dot},	    {"+", tk::plus},	 {"-", tk::minus},
		{"*", tk::star},       {"/", tk::slash},    {"%", tk::percent},	 {"&", tk::amp},
		{"|", tk::pipe},       {"^", tk::caret},    {"~", tk::tilde},	 {"!", tk::bang},
		{"<", tk::lt},	       {">", tk::gt},	    {"=", tk::assign},
	};
	std::string_view rest(src_.data() + pos_, src_.size() - pos_);
	for (const auto &p : puncts) {
		std::string_view s(p.s);
		if (rest.substr(0, s.size()) == s) {
			pos_ += s.size();
			t.kind = p.k;
			t.text = std::string(s);
			t.spelling = t.text;
			return t;
		}
	}
	pos_++;
	t.spelling = std::string(1, c);
	fail(tag::D_SYNTAX, t.line, "syntax error near \"" + t.spelling + "\"");
}

} // namespace dt::compiler
