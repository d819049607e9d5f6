// SPDX-License-Identifier: MIT
//
// compiler/usdt/provider_header.cc - `dtrace -h`: a provider definition
// (provider p { probe q(int, char *); };) to the C header whose macros
// place USDT probes, as dtrace/compiler.hpp provider_header() describes.
//
// The definition is read with the D lexer (comments, #pragma D attributes
// lines and cpp line markers are the lexer's); its grammar is illumos':
//   provider NAME { probe NAME ( [type {, type}] ) [: ( types )] ; ... } ;
// Argument types are kept as written, for the prototypes in comments;
// the macros take their values whatever the caller's expressions are.
//
// What a macro expands to is a stapsdt note (version 3 of <sys/sdt.h>'s
// layout, so that our usdt provider, systemtap, bpftrace, perf and gdb
// all read it): a nop at the probe site, and in .note.stapsdt the site's
// address, the object's .stapsdt.base (for prelinked objects), the probe's
// semaphore, and "provider", "name" and the operands, each printed by the
// assembler as "SIZE@OPERAND" with a negative SIZE for a signed value.
// Each argument is first copied to a local of its own promoted type and
// given to the assembler as a register or a constant ("nr"; <sys/sdt.h>
// also allows memory, "nor", where the compiler may pick a %rip-relative
// global that a probe cannot locate from its registers).
//
// Semaphores: PROVIDER_NAME_ENABLED() reads provider_name_semaphore, a
// 16-bit counter in .probes that the tracer increments while the probe is
// enabled. The header defines it weak and hidden, so every translation
// unit may include the header and each linked object gets one; dtrace -G
// has nothing to add (see dtrace(1)).
#include "../diag.hpp"
#include "../lex/lexer.hpp"

#include <dtrace/compiler.hpp>

#include <cctype>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace dt::compiler {
namespace {

// The arguments the engines read of a stapsdt probe (plugin.h usdt_args and
// usdt_args_hi): a longer prototype is refused rather than half-traced.
constexpr size_t k_usdt_max_args = 12;

struct probe_def {
	std::string name;	       // as written: "query-start"
	std::vector<std::string> args; // native types as written
	uint32_t line = 0;
};

struct provider_def {
	std::string name;
	std::vector<probe_def> probes;
};

class reader {
public:
	explicit reader(const std::string &src) : lex_(src) { t_ = lex_.next(); }

	// Whether the source begins (after pragmas) with a provider
	// definition; a D program does not.
	bool starts_with_provider()
	{
		while (t_.kind == tk::pragma)
			next();
		return t_.kind == tk::ident && t_.text == "provider";
	}

	std::vector<provider_def> all()
	{
		std::vector<provider_def> out;
		while (t_.kind != tk::eof) {
			if (t_.kind == tk::pragma) {
				next();
				continue;
			}
			if (t_.kind != tk::ident || t_.text != "provider")
				fail(tag::D_SYNTAX, t_.line,
				     "syntax error near \"" + t_.text +
					     "\": dtrace -h and -G read provider definitions only");
			out.push_back(provider());
		}
		if (out.empty())
			fail(tag::D_SYNTAX, t_.line, "no provider definition");
		return out;
	}

private:
	lexer lex_;
	token t_;

	void next() { t_ = lex_.next(); }
	token expect(tk k, const char *what)
	{
		if (t_.kind != k)
			fail(tag::D_SYNTAX, t_.line,
			     "syntax error near \"" + t_.text + "\": " + what + " expected");
		token t = t_;
		next();
		return t;
	}

	provider_def provider()
	{
		next(); // "provider"
		provider_def p;
		p.name = expect(tk::ident, "provider name").text;
		expect(tk::lbrace, "{");
		std::map<std::string, uint32_t> seen;
		while (t_.kind != tk::rbrace) {
			if (t_.kind == tk::pragma) {
				next();
				continue;
			}
			if (t_.kind != tk::ident || t_.text != "probe")
				fail(tag::D_SYNTAX, t_.line,
				     "syntax error near \"" + t_.text + "\": probe expected");
			probe_def q = probe();
			if (!seen.emplace(q.name, q.line).second)
				fail(tag::D_PROV_PRDUP, q.line,
				     "probe " + p.name + ":::" + q.name + " is declared twice");
			p.probes.push_back(std::move(q));
		}
		next();
		expect(tk::semi, ";");
		return p;
	}

	// probe NAME ( types ) [: ( types )] ;  -- NAME may contain '-' as
	// lexed: ident (minus ident)*, and "__" stands for '-' (illumos).
	probe_def probe()
	{
		next(); // "probe"
		probe_def q;
		q.line = t_.line;
		q.name = expect(tk::ident, "probe name").text;
		while (t_.kind == tk::minus) {
			next();
			q.name += "-" + expect(tk::ident, "probe name").text;
		}
		for (size_t i; (i = q.name.find("__")) != std::string::npos;)
			q.name.replace(i, 2, "-");
		q.args = types();
		if (t_.kind == tk::colon) { // translated arguments: not the natives
			next();
			(void)types();
		}
		expect(tk::semi, ";");
		// illumos' bound is UINT8_MAX (dt_parser.c), in its words.
		if (q.args.size() > k_usdt_max_args)
			fail(tag::D_PROV_PRARGLEN, q.line,
			     "probe " + q.name + " input prototype exceeds " +
				     std::to_string(k_usdt_max_args) + " parameters: " +
				     std::to_string(q.args.size()) + " params used");
		return q;
	}

	std::vector<std::string> types()
	{
		expect(tk::lparen, "(");
		std::vector<std::string> out;
		std::string cur;
		int depth = 0;
		while (t_.kind != tk::rparen || depth > 0) {
			if (t_.kind == tk::eof)
				fail(tag::D_SYNTAX, t_.line, "syntax error: ) expected");
			if (t_.kind == tk::comma && depth == 0) {
				out.push_back(cur);
				cur.clear();
			} else {
				depth += t_.kind == tk::lparen || t_.kind == tk::lbrack;
				depth -= t_.kind == tk::rparen || t_.kind == tk::rbrack;
				if (!cur.empty() && t_.kind == tk::ident &&
				    std::isalnum(static_cast<unsigned char>(cur.back())))
					cur += ' ';
				cur += t_.text;
			}
			next();
		}
		next();
		if (!cur.empty())
			out.push_back(cur);
		if (out.size() == 1 && out[0] == "void")
			out.clear();
		return out;
	}
};

// C identifiers of the macros: upper case, '-' and '.' as '_'.
std::string upper(const std::string &s)
{
	std::string o;
	for (char c : s)
		o += c == '-' || c == '.'
			     ? '_'
			     : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
	return o;
}

const char *k_prologue = R"(/*
 * _DT_USDT(provider, name, semaphore, nargs, operands...): one USDT probe
 * site as a stapsdt note (version 3), readable by DTrace's usdt provider,
 * systemtap, bpftrace, perf and gdb.
 */
#ifndef _DT_USDT_DEFINED
#define _DT_USDT_DEFINED
#define _DT_USDT_SIGNED(x) ((__typeof__((x) + 0))-1 < (__typeof__((x) + 0))1)
#define _DT_USDT_SIZE(x) (_DT_USDT_SIGNED(x) ? -(int)sizeof((x) + 0) : (int)sizeof((x) + 0))
#ifdef __LP64__
#define _DT_USDT_ADDR ".8byte "
#else
#define _DT_USDT_ADDR ".4byte "
#endif
#define _DT_USDT_NOTE(provider, name, sem, ops)                                \
	"990: nop\n"                                                           \
	".pushsection .note.stapsdt,\"?\",\"note\"\n"                          \
	".balign 4\n"                                                          \
	".4byte 992f-991f, 994f-993f, 3\n"                                     \
	"991: .asciz \"stapsdt\"\n"                                            \
	"992: .balign 4\n"                                                     \
	"993: " _DT_USDT_ADDR "990b\n"                                        \
	_DT_USDT_ADDR "_.stapsdt.base\n"                                       \
	_DT_USDT_ADDR sem "\n"                                                 \
	".asciz \"" provider "\"\n"                                            \
	".asciz \"" name "\"\n"                                                \
	".asciz \"" ops "\"\n"                                                 \
	"994: .balign 4\n"                                                     \
	".popsection\n"                                                        \
	".ifndef _.stapsdt.base\n"                                             \
	".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
	".weak _.stapsdt.base\n"                                               \
	".hidden _.stapsdt.base\n"                                             \
	"_.stapsdt.base: .space 1\n"                                           \
	".size _.stapsdt.base, 1\n"                                            \
	".popsection\n"                                                        \
	".endif\n"
#define _DT_USDT_OP(n) "%n[_s" #n "]@%[_a" #n "]"
#define _DT_USDT_IN(n, x) [_s##n] "n"(-_DT_USDT_SIZE(x)), [_a##n] "nr"(_dt_a##n)
#endif
)";

void emit_probe(std::ostringstream &o, const std::string &prov, const probe_def &q)
{
	std::string P = upper(prov), N = upper(q.name);
	std::string sem = usdt_semaphore(prov, q.name);
	size_t n = q.args.size();
	o << "/* probe " << q.name << "(";
	for (size_t i = 0; i < n; i++)
		o << (i ? ", " : "") << q.args[i];
	o << ") */\n";
	o << "__attribute__((weak, visibility(\"hidden\"), section(\".probes\")))\n"
	  << "volatile unsigned short " << sem << ";\n";
	o << "#define " << P << "_" << N << "_ENABLED() __builtin_expect(" << sem << " != 0, 0)\n";
	o << "#define " << P << "_" << N << "(";
	for (size_t i = 0; i < n; i++)
		o << (i ? ", " : "") << "arg" << i;
	o << ") \\\n\tdo { \\\n";
	for (size_t i = 0; i < n; i++)
		o << "\t\t__typeof__((arg" << i << ") + 0) _dt_a" << i + 1 << " = (arg" << i
		  << "); \\\n";
	o << "\t\t__asm__ __volatile__(_DT_USDT_NOTE(\"" << prov << "\", \""
	  << usdt_note_name(q.name) << "\", \"" << sem << "\", ";
	if (n == 0)
		o << "\"\"";
	for (size_t i = 0; i < n; i++)
		o << (i ? " \" \" " : "") << "_DT_USDT_OP(" << i + 1 << ")";
	o << ") \\\n\t\t\t\t     :";
	if (n > 0) {
		o << ": ";
		for (size_t i = 0; i < n; i++)
			o << (i ? ", " : "") << "_DT_USDT_IN(" << i + 1 << ", _dt_a" << i + 1
			  << ")";
	}
	o << "); \\\n\t} while (0)\n\n";
}

} // namespace

namespace {

std::vector<provider_def> read_definitions(const std::string &src, const std::string &file)
{
	try {
		return reader(src).all();
	} catch (const d_error &e) {
		diagnostic d;
		d.tag = tag_name(e.which);
		d.file = file;
		d.line = e.line;
		d.message = e.what();
		throw compile_error(d);
	}
}

} // namespace

std::vector<provider_definition> provider_definitions(const std::string &src,
						      const std::string &file)
{
	std::vector<provider_definition> out;
	try {
		if (!reader(src).starts_with_provider())
			return out;
	} catch (const d_error &) {
		// the lexer's error: read_definitions() reports it
	}
	for (const provider_def &p : read_definitions(src, file)) {
		provider_definition &d = out.emplace_back();
		d.name = p.name;
		for (const probe_def &q : p.probes)
			d.probes.push_back({q.name, q.args});
	}
	return out;
}

std::string provider_header(const std::string &src, const std::string &file,
			    const std::string &guard)
{
	std::vector<provider_def> provs = read_definitions(src, file);
	std::ostringstream o;
	o << "/*\n * Generated by dtrace -h from " << file
	  << ": do not edit.\n *\n * PROVIDER_PROBE(args...) fires the probe; "
	     "PROVIDER_PROBE_ENABLED() is true while\n * a tracer has it enabled.\n */\n"
	  << "#ifndef " << guard << "\n#define " << guard << "\n\n"
	  << k_prologue << "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
	for (const provider_def &p : provs) {
		o << "/* provider " << p.name << " */\n\n";
		for (const probe_def &q : p.probes)
			emit_probe(o, p.name, q);
	}
	o << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
	return o.str();
}

std::string usdt_note_name(const std::string &probe)
{
	std::string o;
	for (char c : probe)
		o += c == '-' ? std::string("__") : std::string(1, c);
	return o;
}

std::string usdt_semaphore(const std::string &prov, const std::string &probe)
{
	return prov + "_" + usdt_note_name(probe) + "_semaphore";
}

} // namespace dt::compiler
