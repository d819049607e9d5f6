// SPDX-License-Identifier: MIT
//
// compiler/parse/parser.cc - the recursive-descent D parser (see parser.hpp).
//
//   unit      := { pragma | declaration | inline | translator | provider | clause }
//   clause    := pdesc { ',' pdesc } [ '/' expr '/' ] [ '{' stmts '}' ]
//   stmts     := [ expr ] { ';' [ expr ] }
//   expr      := assignment { ',' assignment }            (C precedence below)
//   assignment:= ternary | unary assign-op assignment
//   ternary   := lor [ '?' expr ':' ternary ]
//   lor > lxor(^^) > land > | > ^ > & > equality > relational > shift > additive
//   > multiplicative > cast/unary > postfix > primary
#include "parser.hpp"

#include "../diag.hpp"
#include "../lex/lexer.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <deque>

namespace dt::compiler {

namespace {

const std::set<std::string> k_base_words = {
	"char", "short", "int", "long", "signed", "unsigned", "void", "float", "double", "string",
};
const std::set<std::string> k_decl_words = {
	"char",	      "short",	  "int",    "long",	"signed",   "unsigned", "void",
	"float",      "double",	  "struct", "union",	"enum",	    "typedef",	"inline",
	"translator", "provider", "const",  "volatile", "static",   "extern",	"register",
	"string",     "self",	  "this",   "userland", "restrict",
};

// GCC's words in C headers (-C): <stddef.h>, <stdarg.h> and the kernel's
// UAPI headers use them whatever cpp defines. Spellings of C's own words,
// and words D reads past: __extension__, and __attribute__((...)) and
// __asm__("symbol") with their parentheses. Only in a header's declarations
// (parser_impl::gnu_words()); D programs keep them as identifiers.
const std::map<std::string, std::string> k_gnu_spellings = {
	{"__signed__", "signed"},     {"__signed", "signed"},	    {"__const__", "const"},
	{"__const", "const"},	      {"__volatile__", "volatile"}, {"__volatile", "volatile"},
	{"__restrict__", "restrict"}, {"__restrict", "restrict"},   {"__inline__", "inline"},
};
const std::set<std::string> k_gnu_with_parens = {"__attribute__", "__attribute", "__asm__",
						 "__asm"};

} // namespace

const std::set<std::string> &builtin_typedef_names()
{
	static const std::set<std::string> names = {
		"int8_t",	"int16_t",    "int32_t",   "int64_t",
		"uint8_t",	"uint16_t",   "uint32_t",  "uint64_t",
		"intptr_t",	"uintptr_t",  "size_t",	   "ssize_t",
		"off_t",	"off64_t",    "pid_t",	   "uid_t",
		"gid_t",	"id_t",	      "time_t",	   "caddr_t",
		"uchar_t",	"ushort_t",   "uint_t",	   "ulong_t",
		"u_longlong_t", "longlong_t", "dev_t",	   "mode_t",
		"ino_t",	"clock_t",    "boolean_t", "processorid_t",
		"psetid_t",	"zoneid_t",   "hrtime_t",  "socklen_t",
		"loff_t",	"nlink_t",    "daddr_t",   "major_t",
		"minor_t",	"bool",	      "_Bool",	   "__u8",
		"__u16",	"__u32",      "__u64",	   "__s8",
		"__s16",	"__s32",      "__s64",	   "u8",
		"u16",		"u32",	      "u64",	   "s8",
		"s16",		"s32",	      "s64",	   "pgid_t",
		"key_t",	"blkcnt_t",
	};
	return names;
}

class parser_impl {
public:
	parser_impl(const std::string &src, const macro_values &m, std::set<std::string> &td,
		    const extern_type_fn &xt, bool from_file)
		: lex_(src), macros_(m), typedefs_(td), extern_type_(xt), from_file_(from_file)
	{
	}

	translation_unit unit();
	void items(translation_unit &u);

private:
	// ---- tokens
	token &peek(size_t n = 0)
	{
		while (buf_.size() <= n)
			buf_.push_back(lex_.next());
		return buf_[n];
	}
	token take()
	{
		token t = peek();
		buf_.pop_front();
		// Open ( and [ counted as illumos' lexer does (pcb_parens,
		// pcb_brackets) for its messages about unbalanced input.
		if (t.kind == tk::lparen)
			parens_++;
		else if (t.kind == tk::rparen)
			parens_--;
		else if (t.kind == tk::lbrack)
			brackets_++;
		else if (t.kind == tk::rbrack)
			brackets_--;
		return t;
	}
	bool is(tk k, size_t n = 0) { return peek(n).kind == k; }
	// The line of the next token, without taking it from the lexer (a
	// clause's '{' must stay there: see clause()).
	uint32_t peek_line()
	{
		if (!buf_.empty())
			return buf_.front().line;
		(void)lex_.peek_char();
		return lex_.line();
	}
	bool accept(tk k)
	{
		if (!is(k))
			return false;
		take();
		return true;
	}
	token expect(tk k)
	{
		if (!is(k))
			syntax_error(peek());
		return take();
	}
	[[noreturn]] void syntax_error(const token &t)
	{
		if (t.kind == tk::rparen && parens_ <= 0)
			fail(tag::D_SYNTAX, t.line, "extra ) in input stream");
		if (t.kind == tk::slash && pred_open_ && (parens_ > 0 || brackets_ > 0)) {
			// illumos reads past the '/' to see whether it ends the
			// predicate; the message names the line it got to.
			// t may still be the next token or already taken.
			bool front = peek().kind == tk::slash && peek().line == t.line;
			const token &n = peek(front ? 1 : 0);
			if (n.kind == tk::lbrace || n.kind == tk::semi || n.kind == tk::slash ||
			    n.kind == tk::eof)
				fail(tag::D_SYNTAX, n.line,
				     parens_ > 0 ? "closing ) expected in predicate before /"
						 : "closing ] expected in predicate before /");
		}
		if (t.kind == tk::eof)
			fail(tag::D_SYNTAX, t.line, "syntax error near end of input");
		fail(tag::D_SYNTAX, t.line, "syntax error near \"" + t.spelling + "\"");
	}
	// In a C header's declaration: GCC's spellings become C's words, and
	// what D keeps nothing of is read past (k_gnu_spellings).
	void gnu_words()
	{
		while (c_header_ && peek().kind == tk::ident) {
			token &t = peek();
			if (auto it = k_gnu_spellings.find(t.text); it != k_gnu_spellings.end()) {
				t.text = it->second;
				return;
			}
			if (t.text == "__extension__") {
				take();
				continue;
			}
			if (!k_gnu_with_parens.count(t.text) || !is(tk::lparen, 1))
				return;
			take();
			int depth = 0;
			do {
				const token &p = peek();
				if (p.kind == tk::eof)
					syntax_error(p);
				depth += p.kind == tk::lparen ? 1 : p.kind == tk::rparen ? -1 : 0;
				take();
			} while (depth > 0);
		}
	}
	bool is_word(const std::string &w, size_t n = 0)
	{
		return peek(n).kind == tk::ident && peek(n).text == w;
	}
	bool starts_type(size_t n = 0)
	{
		const token &t = peek(n);
		if (t.kind != tk::ident)
			return false;
		if (t.text == "self" || t.text == "this")
			return false;
		// A typedef name scoped by its module: D`name, vmlinux`name.
		size_t bq = t.text.rfind('`');
		return k_decl_words.count(t.text) || typedefs_.count(t.text) ||
		       (bq != std::string::npos && bq + 1 < t.text.size() &&
			typedefs_.count(t.text.substr(bq + 1)));
	}
	// peek(n) is an identifier no one declared that extern_type_ knows
	// as a type (it then joins typedefs_).
	bool extern_type(size_t n)
	{
		const token &t = peek(n);
		if (t.kind != tk::ident || !extern_type_ || t.text == "self" || t.text == "this" ||
		    !extern_type_(t.text))
			return false;
		typedefs_.insert(t.text);
		return true;
	}
	// After `(`: `name )` followed by an operand, or `name *... )`: only
	// a type makes sense of either (see parse()).
	bool cast_of_extern_type(size_t n)
	{
		if (peek(n).kind != tk::ident)
			return false;
		size_t k = n + 1;
		if (peek(k).kind == tk::star) {
			while (peek(k).kind == tk::star)
				k++;
			return peek(k).kind == tk::rparen && extern_type(n);
		}
		if (peek(k).kind != tk::rparen)
			return false;
		switch (peek(k + 1).kind) {
		case tk::ident:
		case tk::int_lit:
		case tk::char_lit:
		case tk::str_lit:
		case tk::lparen:
		case tk::macro_var:
		case tk::bang:
		case tk::tilde:
		case tk::minus:
		case tk::plus:
		case tk::star:
		case tk::amp: return extern_type(n);
		default: return false;
		}
	}

	// ---- top level
	void clause(translation_unit &u);
	void declaration(translation_unit &u, bool c_header);
	void skip_function_body();
	void translator(translation_unit &u);
	void skip_provider();
	std::string expand_desc(const token &t);

	// ---- declarations
	std::shared_ptr<decl_spec> specifiers(bool allow_storage);
	declarator declarator_(bool abstract);
	void dimensions(declarator &d);
	void prototype(const char *kind, tk close);
	type_name type_name_();

	// ---- expressions
	expr_ptr expression();
	expr_ptr assignment();
	expr_ptr ternary();
	expr_ptr binary(int prec);
	expr_ptr unary();
	expr_ptr postfix(expr_ptr e);
	expr_ptr primary();
	expr_ptr macro(const token &t);
	std::string macro_value(const token &t);
	expr_ptr macro_expr(const token &t, const std::string &val);
	expr_ptr node(ek k, uint32_t line)
	{
		auto e = std::make_unique<expr>();
		e->kind = k;
		e->line = line;
		return e;
	}
	// Every child goes in through here, which keeps the tree no taller than
	// the later passes (all recursive, as is ~expr) can walk on any stack:
	// the loops for left-associative operators, postfix chains and comma
	// lists would otherwise build trees of any height without recursing.
	void adopt(expr &parent, expr_ptr kid)
	{
		if (kid && kid->height + 1 > parent.height) {
			parent.height = kid->height + 1;
			if (parent.height > max_height)
				fail(tag::D_SYNTAX, parent.line,
				     "syntax error: expression nested too deeply");
		}
		parent.kids.push_back(std::move(kid));
	}
	// The parser's own recursion (unary, assignment, ternary), bounded as
	// yacc's stack bounds illumos' parser.
	struct recursion_guard {
		parser_impl &p;
		explicit recursion_guard(parser_impl &pi) : p(pi)
		{
			if (++p.depth_ > max_recursion)
				fail(tag::D_SYNTAX, p.peek().line,
				     "syntax error: yacc stack overflow");
		}
		~recursion_guard() { --p.depth_; }
		recursion_guard(const recursion_guard &) = delete;
		recursion_guard &operator=(const recursion_guard &) = delete;
	};
	static constexpr int max_recursion = 1536; // about 500 parentheses
	static constexpr uint32_t max_height = 1024;

	lexer lex_;
	std::deque<token> buf_;
	const macro_values &macros_;
	std::set<std::string> &typedefs_;
	const extern_type_fn &extern_type_;
	bool from_file_;	 // a script file (-s), not a -n/-P/-m/-f specifier
	bool pred_open_ = false; // between a predicate's slashes
	int parens_ = 0, brackets_ = 0;
	bool in_pred_ = false;
	int nest_ = 0;
	std::set<std::string> defined_tags_; // struct/union/enum tags given a body
	// The declaration being parsed comes from a file that cpp included
	// (-C): C's definitions (illumos dt_cdefs), not D's. See declaration().
	bool c_header_ = false;
	int depth_ = 0;
};

translation_unit parser_impl::unit()
{
	translation_unit u;
	try {
		items(u);
	} catch (const d_error &e) {
		throw parse_error(e, std::make_shared<translation_unit>(std::move(u)));
	}
	return u;
}

void parser_impl::items(translation_unit &u)
{
	for (;;) {
		if (!buf_.empty()) {
			// Only ';' may be left over from a declaration.
			if (is(tk::semi)) {
				take();
				continue;
			}
			if (is(tk::eof))
				break;
			syntax_error(peek());
		}
		char c = lex_.peek_char();
		if (c == '\0')
			break;
		if (c == '#') {
			token t = lex_.next();
			item it;
			it.k = item::kind::pragma;
			it.pragma = t.text;
			it.line = t.line;
			u.items.push_back(std::move(it));
			continue;
		}
		if (c == ';') {
			lex_.next();
			continue;
		}
		std::string w = lex_.peek_word();
		// illumos dt_lex.l: under DTRACE_C_PSPEC (-x pspec) a word at the
		// start of a program statement is a probe description, never a
		// declaration's keyword or type name.
		bool gnu = lex_.include_depth() > 0 && w == "__extension__";
		if (!w.empty() && !macros_.pspec &&
		    (k_decl_words.count(w) || typedefs_.count(w) || gnu)) {
			if (w == "translator")
				translator(u);
			else if (w == "provider")
				skip_provider();
			else
				declaration(u, lex_.include_depth() > 0);
			continue;
		}
		clause(u);
	}
}

std::string parser_impl::expand_desc(const token &t)
{
	// $target, $pid, $1 ... inside a description (pid$target:::entry).
	std::string out;
	const std::string &s = t.text;
	for (size_t i = 0; i < s.size(); i++) {
		if (s[i] != '$') {
			out += s[i];
			continue;
		}
		size_t j = i + 1;
		if (j < s.size() && s[j] == '$')
			j++;
		size_t k = j;
		while (k < s.size() &&
		       (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_'))
			k++;
		std::string name = s.substr(j, k - j);
		if (name.empty()) {
			out += s[i];
			continue;
		}
		token mt;
		mt.kind = tk::macro_var;
		mt.text = name;
		mt.spelling = "$" + name;
		mt.line = t.line;
		// Substituted as text (illumos: tick-$1 with "10ms" is tick-10ms).
		out += macro_value(mt);
		i = k - 1;
	}
	return out;
}

void parser_impl::clause(translation_unit &u)
{
	auto c = std::make_unique<clause_ast>();
	for (;;) {
		token t = lex_.next_probe_desc();
		if (t.kind != tk::probe_desc)
			syntax_error(t);
		if (c->descs.empty())
			c->line = t.line;
		c->descs.push_back({expand_desc(t), t.line});
		if (lex_.peek_char() == ',') {
			lex_.next();
			continue;
		}
		break;
	}
	if (lex_.peek_char() == '/') {
		take();
		in_pred_ = true;
		pred_open_ = true;
		nest_ = 0;
		c->predicate = expression();
		in_pred_ = false;
		if (!is(tk::slash))
			syntax_error(peek());
		pred_open_ = false;
		take();
		// illumos' lexer looks past the closing '/' for what follows
		// before yacc builds the nodes it completes: those carry the
		// line of that next token (the '{' on the next line).
		uint32_t after = peek_line();
		for (expr *e = c->predicate.get(); e;) {
			e->line = after;
			if ((e->kind == ek::binary || e->kind == ek::assign ||
			     e->kind == ek::ternary || e->kind == ek::unary) &&
			    !e->kids.empty())
				e = e->kids.back().get();
			else
				e = nullptr;
		}
	}
	if (from_file_ && !c->predicate && !(buf_.empty() && lex_.peek_char() == '{'))
		// illumos dt_grammar.y: a file's clause must have a predicate or
		// actions; reported at its (last) description.
		fail(tag::D_SYNTAX, c->descs.back().line,
		     "expected predicate and/or actions following probe description");
	if (buf_.empty() && lex_.peek_char() == '{') {
		take();
		for (;;) {
			if (is(tk::rbrace)) {
				c->end_line = peek().line;
				take();
				break;
			}
			if (accept(tk::semi))
				continue;
			c->stmts.push_back(expression());
			if (accept(tk::semi))
				continue;
			if (!is(tk::rbrace))
				syntax_error(peek());
		}
	}
	item it;
	it.k = item::kind::clause;
	it.line = c->line;
	it.clause = std::move(c);
	u.items.push_back(std::move(it));
}

std::shared_ptr<decl_spec> parser_impl::specifiers(bool allow_storage)
{
	auto s = std::make_shared<decl_spec>();
	s->line = peek().line;
	bool any = false;
	for (;;) {
		gnu_words();
		const token &t = peek();
		if (t.kind != tk::ident)
			break;
		const std::string w = t.text;
		if (allow_storage && (w == "typedef" || w == "static" || w == "extern" ||
				      w == "register" || w == "self" || w == "this")) {
			if (!s->storage.empty())
				fail(tag::D_DECL_CLASS, t.line,
				     "only one storage class allowed in a declaration");
			s->storage = w;
			take();
			continue;
		}
		// C's function specifier, in a header's `static inline` function.
		if (c_header_ && allow_storage && (w == "inline" || w == "__inline")) {
			take();
			continue;
		}
		if (w == "const" || w == "volatile" || w == "restrict" || w == "userland") {
			if (w == "const")
				s->is_const = true;
			take();
			continue;
		}
		if (k_base_words.count(w) && (!s->typedef_name.empty() || !s->sou.empty()))
			fail(tag::D_DECL_COMBO, t.line, "invalid type combination");
		if ((w == "struct" || w == "union" || w == "enum") && any) {
			bool lng = std::find(s->words.begin(), s->words.end(), "long") !=
				   s->words.end();
			// Raised where yacc has read the tag and the token after it.
			uint32_t at = peek(is(tk::ident, 1) ? 2 : 1).line;
			if (lng && s->sou.empty() && s->typedef_name.empty())
				fail(tag::D_DECL_LONGINT, at,
				     "invalid type declaration: long and long long may only be "
				     "used with integer or floating-point type");
			fail(tag::D_DECL_COMBO, t.line, "invalid type combination");
		}
		if (k_base_words.count(w)) {
			s->words.push_back(w);
			take();
			any = true;
			continue;
		}
		if ((w == "struct" || w == "union" || w == "enum") && !any) {
			take();
			s->sou = w;
			s->c_header = c_header_;
			any = true;
			gnu_words(); // struct __attribute__((packed)) tag
			if (is(tk::ident))
				s->tag = take().text;
			uint32_t brace = peek().line;
			if (accept(tk::lbrace)) {
				s->has_body = true;
				// A second body for a tag: illumos dt_decl_sou() refuses
				// it at the `{`.
				if (!s->tag.empty() && !c_header_ &&
				    !defined_tags_.insert(w + " " + s->tag).second)
					fail(tag::D_DECL_TYPERED, brace,
					     "type redeclared: " + w + " " + s->tag);
				if (w == "enum") {
					while (!accept(tk::rbrace)) {
						token n = expect(tk::ident);
						expr_ptr v;
						if (accept(tk::assign))
							v = ternary();
						// illumos checks an enumerator once yacc has read
						// the token after it: errors name that line.
						s->enumerator_lines.push_back(peek().line);
						s->enumerators.emplace_back(n.text, std::move(v));
						if (!accept(tk::comma)) {
							expect(tk::rbrace);
							break;
						}
					}
				} else {
					while (!accept(tk::rbrace)) {
						auto ms = specifiers(false);
						std::vector<declarator> ds;
						do {
							ds.push_back(declarator_(false));
						} while (accept(tk::comma));
						expect(tk::semi);
						s->members.push_back({ms, std::move(ds)});
					}
				}
			} else if (s->tag.empty()) {
				syntax_error(peek());
			}
			continue;
		}
		if (!any && starts_type() && !k_decl_words.count(w)) {
			s->typedef_name = w;
			take();
			any = true;
			continue;
		}
		break;
	}
	if (!any && allow_storage && !s->storage.empty() && is(tk::ident))
		s->words.push_back("int"); // `extern x;`: an int, as in C
	else if (!any)
		syntax_error(peek());
	return s;
}

// A prototype's parameter list, after its `(` (illumos dt_decl_prototype()'s
// checks); `kind` is "function" or "array". Parameters are checked, not kept:
// D calls no user-declared function.
void parser_impl::prototype(const char *kind, tk close)
{
	int n = 0;
	bool has_void = false;
	if (accept(close))
		return;
	for (;;) {
		n++;
		const token &t = peek();
		if (accept(tk::ellipsis)) {
			if (std::string(kind) != "function")
				fail(tag::D_DECL_PROTO_VARARGS, t.line,
				     std::string(kind) +
					     " prototype may not use a variable-length argument "
					     "list");
		} else {
			uint32_t line = t.line;
			auto ps = specifiers(false);
			declarator d = declarator_(false);
			bool is_void = d.ptrs == 0 && d.dims.empty() && ps->words.size() == 1 &&
				       ps->words[0] == "void";
			if (d.assoc)
				fail(tag::D_DECL_PROTO_TYPE, line,
				     std::string(kind) +
					     " prototype may not use parameter of type dynamic "
					     "variable: " +
					     (d.name.empty() ? "(anonymous)" : d.name) +
					     ", parameter #" + std::to_string(n));
			if (is_void && !d.name.empty())
				fail(tag::D_DECL_PROTO_NAME, line,
				     "void parameter may not have a name: " + d.name);
			has_void = has_void || is_void;
		}
		if (accept(close))
			break;
		expect(tk::comma);
	}
	if (has_void && n > 1)
		fail(tag::D_DECL_PROTO_VOID, peek().line, "void must be sole parameter");
}

declarator parser_impl::declarator_(bool abstract)
{
	declarator d;
	d.line = peek().line;
	gnu_words();
	while (accept(tk::star)) {
		d.ptrs++;
		for (gnu_words(); is_word("const") || is_word("volatile") || is_word("restrict");
		     gnu_words())
			take();
	}
	if (is(tk::lparen) && is(tk::star, 1)) {
		// A function pointer: (*name)(args) - kept as a pointer.
		take();
		take();
		d.ptrs++;
		while (accept(tk::star))
			d.ptrs++;
		if (is(tk::ident))
			d.name = take().text;
		// An array of function pointers: (*name[N])(args).
		dimensions(d);
		expect(tk::rparen);
		if (accept(tk::lparen))
			prototype("function", tk::rparen);
		gnu_words();
		return d;
	}
	if (abstract && is(tk::lparen)) {
		// illumos' direct_abstract_declarator `function`: a type name
		// such as `int (void)` or `struct out (struct in *p)` is a
		// function type, its parameters checked as a prototype's.
		take();
		prototype("function", tk::rparen);
		d.function = true;
		gnu_words();
		return d;
	}
	if (!abstract) {
		if (is(tk::ident) && !starts_type())
			d.name = take().text;
		else if (is(tk::ident))
			d.name = take().text; // a typedef name reused as an identifier
	}
	if (!abstract && !d.name.empty() && accept(tk::lparen)) {
		// A function: `int f(int, char *)`, `int g(void)`, `int h(...)`.
		prototype("function", tk::rparen);
		d.function = true;
		gnu_words(); // int f(void) __attribute__((nothrow)) __asm__("f64");
		return d;
	}
	dimensions(d);
	if (accept(tk::colon))
		d.bitfield = ternary();
	gnu_words();
	return d;
}

// A declarator's brackets: array dimensions, or an associative array's
// key types.
void parser_impl::dimensions(declarator &d)
{
	while (accept(tk::lbrack)) {
		if (is(tk::ellipsis)) {
			prototype("array", tk::rbrack);
			continue;
		}
		if (starts_type()) {
			d.assoc = true;
			do {
				d.keys.push_back(type_name_());
				// A parameter's name (inline fileinfo_t fds[int fd]).
				d.key_names.push_back(is(tk::ident) ? take().text : "");
			} while (accept(tk::comma));
		} else if (!is(tk::rbrack)) {
			nest_++;
			d.dims.push_back(expression());
			nest_--;
		} else {
			d.dims.push_back(nullptr);
		}
		expect(tk::rbrack);
	}
}

type_name parser_impl::type_name_()
{
	type_name t;
	t.spec = specifiers(false);
	declarator d = declarator_(true);
	t.ptrs = d.ptrs;
	t.function = d.function;
	for (auto &e : d.dims)
		t.dim_exprs.push_back(std::move(e));
	return t;
}

// A declaration; c_header: it comes from a file that cpp included (-C).
// illumos keeps such declarations apart, in its C definitions (dt_cdefs):
// they may define again what D already has (typedefs, tags, enumerators).
// Linux's C library headers also define functions (`static inline`
// byte swaps in <endian.h>): D has no functions and calls none declared,
// so a header's function definition is read and dropped, as a prototype
// is. In the program's own text it stays a syntax error.
void parser_impl::declaration(translation_unit &u, bool c_header)
{
	c_header_ = c_header;
	struct reset {
		bool &flag;
		~reset() { flag = false; }
	} reset_flag{c_header_};
	if (is_word("inline") && !c_header) {
		auto in = std::make_unique<inline_ast>();
		in->line = take().line;
		in->spec = specifiers(false);
		in->decl = declarator_(false);
		expect(tk::assign);
		in->value = expression();
		expect(tk::semi);
		item it;
		it.k = item::kind::inline_;
		it.line = in->line;
		it.inl = std::move(in);
		u.items.push_back(std::move(it));
		return;
	}
	auto d = std::make_unique<decl_ast>();
	d->line = peek().line;
	d->spec = specifiers(true);
	d->c_header = c_header;
	bool body = false;
	if (!is(tk::semi)) {
		do {
			d->decls.push_back(declarator_(false));
			body = c_header && d->decls.size() == 1 && d->decls.back().function &&
			       is(tk::lbrace);
		} while (!body && accept(tk::comma));
	}
	if (body)
		skip_function_body();
	else
		expect(tk::semi);
	if (d->spec->storage == "typedef")
		for (const auto &dc : d->decls)
			typedefs_.insert(dc.name);
	item it;
	it.k = item::kind::decl;
	it.line = d->line;
	it.decl = std::move(d);
	u.items.push_back(std::move(it));
}

// A C function's body, from its `{` to the matching `}`.
void parser_impl::skip_function_body()
{
	int depth = 0;
	do {
		const token &t = peek();
		if (t.kind == tk::eof)
			syntax_error(t);
		if (t.kind == tk::lbrace)
			depth++;
		else if (t.kind == tk::rbrace)
			depth--;
		take();
	} while (depth > 0);
}

void parser_impl::translator(translation_unit &u)
{
	auto x = std::make_unique<translator_ast>();
	x->line = take().line;
	x->out = type_name_();
	expect(tk::lt);
	x->in = type_name_();
	x->in_name = expect(tk::ident).text;
	expect(tk::gt);
	expect(tk::lbrace);
	while (!accept(tk::rbrace)) {
		// translator_member: IDENT = assignment_expression ;
		token m = expect(tk::ident);
		expect(tk::assign);
		x->members.emplace_back(m.text, assignment());
		expect(tk::semi);
	}
	x->end_line = expect(tk::semi).line;
	item it;
	it.k = item::kind::translator;
	it.line = x->line;
	it.xl = std::move(x);
	u.items.push_back(std::move(it));
}

void parser_impl::skip_provider()
{
	take();
	expect(tk::ident);
	expect(tk::lbrace);
	int depth = 1;
	while (depth > 0) {
		token t = take();
		if (t.kind == tk::eof)
			syntax_error(t);
		depth += t.kind == tk::lbrace ? 1 : t.kind == tk::rbrace ? -1 : 0;
	}
	expect(tk::semi);
}

// ---- expressions -------------------------------------------------------

expr_ptr parser_impl::expression()
{
	expr_ptr e = assignment();
	while (is(tk::comma) && nest_ == 0 && !in_pred_) {
		// A top-level comma in a statement (a, b) is C's comma operator.
		uint32_t l = take().line;
		auto c = node(ek::comma, l);
		adopt(*c, std::move(e));
		adopt(*c, assignment());
		e = std::move(c);
	}
	return e;
}

namespace {

bool is_assign_op(tk k)
{
	switch (k) {
	case tk::assign:
	case tk::add_eq:
	case tk::sub_eq:
	case tk::mul_eq:
	case tk::div_eq:
	case tk::mod_eq:
	case tk::and_eq_:
	case tk::or_eq_:
	case tk::xor_eq_:
	case tk::shl_eq:
	case tk::shr_eq: return true;
	default: return false;
	}
}

int binary_prec(tk k)
{
	switch (k) {
	case tk::lor: return 1;
	case tk::lxor: return 2;
	case tk::land: return 3;
	case tk::pipe: return 4;
	case tk::caret: return 5;
	case tk::amp: return 6;
	case tk::eqeq:
	case tk::ne: return 7;
	case tk::lt:
	case tk::gt:
	case tk::le:
	case tk::ge: return 8;
	case tk::shl:
	case tk::shr: return 9;
	case tk::plus:
	case tk::minus: return 10;
	case tk::star:
	case tk::slash:
	case tk::percent: return 11;
	default: return 0;
	}
}

} // namespace

expr_ptr parser_impl::assignment()
{
	recursion_guard guard(*this);
	expr_ptr lhs = ternary();
	if (is_assign_op(peek().kind)) {
		token op = take();
		auto a = node(ek::assign, op.line);
		a->op = op.kind;
		adopt(*a, std::move(lhs));
		adopt(*a, assignment());
		return a;
	}
	return lhs;
}

expr_ptr parser_impl::ternary()
{
	recursion_guard guard(*this);
	expr_ptr c = binary(1);
	if (!is(tk::question))
		return c;
	uint32_t l = take().line;
	auto t = node(ek::ternary, l);
	adopt(*t, std::move(c));
	nest_++;
	adopt(*t, expression());
	nest_--;
	expect(tk::colon);
	adopt(*t, ternary());
	return t;
}

expr_ptr parser_impl::binary(int prec)
{
	expr_ptr lhs = unary();
	for (;;) {
		tk k = peek().kind;
		int p = binary_prec(k);
		if (p == 0 || p < prec)
			return lhs;
		if (k == tk::slash && in_pred_ && nest_ == 0)
			return lhs; // the '/' closing a predicate
		if (k == tk::slash && pred_open_ &&
		    (is(tk::lbrace, 1) || is(tk::semi, 1) || is(tk::eof, 1)))
			syntax_error(peek()); // a '/' that can only end the predicate
		token op = take();
		expr_ptr rhs = binary(p + 1);
		auto b = node(ek::binary, op.line);
		b->op = op.kind;
		adopt(*b, std::move(lhs));
		adopt(*b, std::move(rhs));
		lhs = std::move(b);
	}
}

expr_ptr parser_impl::unary()
{
	recursion_guard guard(*this);
	const token &t = peek();
	switch (t.kind) {
	case tk::inc:
	case tk::dec: {
		token op = take();
		auto e = node(ek::incdec, op.line);
		e->op = op.kind;
		adopt(*e, unary());
		return e;
	}
	case tk::minus:
	case tk::plus:
	case tk::tilde:
	case tk::bang:
	case tk::star:
	case tk::amp: {
		token op = take();
		auto e = node(ek::unary, op.line);
		e->op = op.kind;
		adopt(*e, unary());
		return e;
	}
	case tk::lparen:
		if (starts_type(1) || cast_of_extern_type(1)) {
			uint32_t l = take().line;
			auto e = node(ek::cast, l);
			nest_++;
			e->tname = std::make_shared<type_name>(type_name_());
			nest_--;
			expect(tk::rparen);
			adopt(*e, unary());
			// illumos builds the node when the parser reduces the cast,
			// having read the token after it: errors name that line.
			e->line = peek_line();
			return e;
		}
		break;
	case tk::ident:
		if (t.text == "sizeof") {
			uint32_t l = take().line;
			if (is(tk::lparen) && (starts_type(1) || cast_of_extern_type(1) ||
					       (peek(2).kind == tk::rparen && extern_type(1)))) {
				take();
				auto e = node(ek::sizeof_type, l);
				nest_++;
				e->tname = std::make_shared<type_name>(type_name_());
				nest_--;
				expect(tk::rparen);
				return e;
			}
			auto e = node(ek::sizeof_expr, l);
			adopt(*e, unary());
			return e;
		}
		if (t.text == "stringof") {
			uint32_t l = take().line;
			auto e = node(ek::stringof, l);
			adopt(*e, unary());
			return e;
		}
		break;
	default: break;
	}
	return postfix(primary());
}

expr_ptr parser_impl::postfix(expr_ptr e)
{
	for (;;) {
		const token &t = peek();
		if (t.kind == tk::lbrack) {
			uint32_t l = take().line;
			auto ix = node(ek::index, l);
			adopt(*ix, std::move(e));
			nest_++;
			if (!is(tk::rbrack)) {
				do {
					adopt(*ix, assignment());
				} while (accept(tk::comma));
			}
			nest_--;
			expect(tk::rbrack);
			e = std::move(ix);
		} else if (t.kind == tk::lparen && e->kind == ek::ident) {
			uint32_t l = take().line;
			auto c = node(ek::call, l);
			c->name = e->name;
			nest_++;
			if (!is(tk::rparen)) {
				do {
					adopt(*c, assignment());
				} while (accept(tk::comma));
			}
			nest_--;
			expect(tk::rparen);
			e = std::move(c);
		} else if (t.kind == tk::dot || t.kind == tk::arrow) {
			token op = take();
			token m = take();
			if (m.kind != tk::ident)
				syntax_error(m);
			if (op.kind == tk::arrow && e->kind == ek::ident &&
			    (e->name == "self" || e->name == "this")) {
				auto v = node(e->name == "self" ? ek::tls_var : ek::local_var,
					      op.line);
				v->name = m.text;
				e = std::move(v);
				continue;
			}
			auto mm = node(op.kind == tk::dot ? ek::member : ek::arrow, op.line);
			mm->name = m.text;
			adopt(*mm, std::move(e));
			e = std::move(mm);
		} else if (t.kind == tk::inc || t.kind == tk::dec) {
			token op = take();
			auto p = node(ek::incdec, op.line);
			p->op = op.kind;
			p->postfix = true;
			adopt(*p, std::move(e));
			e = std::move(p);
		} else {
			return e;
		}
	}
}

expr_ptr parser_impl::macro(const token &t)
{
	std::string val = macro_value(t);
	if (t.kind == tk::macro_str) {
		auto e = node(ek::str_lit, t.line);
		e->name = val;
		return e;
	}
	return macro_expr(t, val);
}

// The text a macro variable stands for ($1, $$1, $pid); D_MACRO_UNDEF if none.
std::string parser_impl::macro_value(const token &t)
{
	const std::string &n = t.text;
	std::string val;
	bool found = false;
	bool numeric_name = !n.empty() && std::all_of(n.begin(), n.end(), [](char c) {
		return std::isdigit(static_cast<unsigned char>(c));
	});
	if (numeric_name) {
		size_t i = n.size() > 9 ? SIZE_MAX : std::stoul(n);
		if (i < macros_.args.size()) {
			val = macros_.args[i];
			found = true;
			macros_.referenced.resize(macros_.args.size());
			macros_.referenced[i] = true;
		}
	} else {
		auto it = macros_.named.find(n);
		if (it != macros_.named.end()) {
			val = it->second;
			found = true;
		}
	}
	if (!found) {
		if (!macros_.defaultargs || !numeric_name)
			fail(tag::D_MACRO_UNDEF, t.line,
			     "macro argument " + t.spelling + " is not defined");
		val = t.kind == tk::macro_str ? "" : "0";
	}
	return val;
}

expr_ptr parser_impl::macro_expr(const token &t, const std::string &val)
{
	// An integer value is an integer constant; anything else is lexed as
	// an identifier (illumos: "$1" with value "foo" means foo).
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(val.c_str(), &end, 0);
	if (!val.empty() && end && *end == '\0' && errno == 0) {
		auto e = node(ek::int_lit, t.line);
		e->value = v;
		return e;
	}
	if (!val.empty() && val[0] == '-') {
		long long sv = std::strtoll(val.c_str(), &end, 0);
		if (end && *end == '\0') {
			auto e = node(ek::int_lit, t.line);
			e->value = static_cast<uint64_t>(sv);
			return e;
		}
	}
	bool ident =
		!val.empty() && (std::isalpha(static_cast<unsigned char>(val[0])) || val[0] == '_');
	for (char c : val)
		ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
	if (ident) {
		auto e = node(ek::ident, t.line);
		e->name = val;
		return e;
	}
	bool numeric_name =
		!t.text.empty() && std::all_of(t.text.begin(), t.text.end(), [](char c) {
			return std::isdigit(static_cast<unsigned char>(c));
		});
	if (!numeric_name) { // $cwd and friends are strings
		auto e = node(ek::str_lit, t.line);
		e->name = val;
		return e;
	}
	token bad = t;
	bad.spelling = val;
	syntax_error(bad);
}

expr_ptr parser_impl::primary()
{
	token t = take();
	switch (t.kind) {
	case tk::int_lit: {
		auto e = node(ek::int_lit, t.line);
		e->value = t.value;
		e->int_unsigned = t.is_unsigned;
		e->int_long = t.long_count;
		e->int_hexoct = t.from_hex_or_octal;
		return e;
	}
	case tk::char_lit: {
		auto e = node(ek::int_lit, t.line);
		e->value = t.value;
		e->name = "char";
		return e;
	}
	case tk::str_lit: {
		auto e = node(ek::str_lit, t.line);
		e->name = t.text;
		// Adjacent literals concatenate.
		while (is(tk::str_lit))
			e->name += take().text;
		return e;
	}
	case tk::macro_var:
	case tk::macro_str: return macro(t);
	case tk::agg: {
		auto e = node(ek::agg, t.line);
		e->name = t.text;
		if (accept(tk::lbrack)) {
			nest_++;
			if (!is(tk::rbrack)) {
				do {
					adopt(*e, assignment());
				} while (accept(tk::comma));
			}
			nest_--;
			expect(tk::rbrack);
		}
		return e;
	}
	case tk::lparen: {
		int saved = nest_;
		nest_++;
		bool pred = in_pred_;
		in_pred_ = false;
		expr_ptr e = expression();
		in_pred_ = pred;
		nest_ = saved;
		expect(tk::rparen);
		return e;
	}
	case tk::ident: {
		if (t.text == "offsetof") {
			auto e = node(ek::offsetof, t.line);
			expect(tk::lparen);
			e->tname = std::make_shared<type_name>(type_name_());
			expect(tk::comma);
			e->name = expect(tk::ident).text;
			expect(tk::rparen);
			return e;
		}
		if (t.text == "xlate") {
			auto e = node(ek::xlate, t.line);
			expect(tk::lt);
			e->tname = std::make_shared<type_name>(type_name_());
			expect(tk::gt);
			expect(tk::lparen);
			nest_++;
			adopt(*e, expression());
			nest_--;
			expect(tk::rparen);
			return e;
		}
		if (k_decl_words.count(t.text) && t.text != "self" && t.text != "this")
			syntax_error(t);
		auto e = node(ek::ident, t.line);
		e->name = t.text;
		return e;
	}
	default: syntax_error(t);
	}
}

translation_unit parse(const std::string &src, const macro_values &macros,
		       std::set<std::string> &typedefs, const extern_type_fn &extern_type,
		       bool from_file)
{
	if (typedefs.empty()) {
		typedefs = builtin_typedef_names();
		typedefs.insert("__builtin_va_list"); // GCC's, in C headers (types.cc)
	}
	parser_impl p(src, macros, typedefs, extern_type, from_file);
	return p.unit();
}

} // namespace dt::compiler
