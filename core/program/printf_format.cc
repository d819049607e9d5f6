// SPDX-License-Identifier: MIT
//
// program/printf_format.cc - the printf format parser and argument
// checker (printf_format.hpp). Behaviour and wording follow illumos
// dt_printf.c: dt_printf_create() for parsing, dt_printf_validate() for
// checking.
#include "printf_format.hpp"

#include <cctype>
#include <iterator>

namespace dt::fmt {

namespace {

constexpr std::string_view k_xint = "char, short, int, long, or long long";
constexpr std::string_view k_csi = "char, short, or int";
constexpr std::string_view k_fp = "float, double, or long double";
constexpr std::string_view k_addr = "pointer or integer";
constexpr std::string_view k_uaddr = "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
constexpr std::string_view k_cstr = "char [] or string (or use stringof)";
constexpr std::string_view k_wstr = "wchar_t []";

using C = arg_check;
using P = arg_print;

// illumos _dtrace_conversions, in its order (Linux variant: %wc/%ws print
// through the C library's %lc/%ls).
const conv_spec k_table[] = {
	{"a", "s", k_addr, C::kaddr, P::kaddr},
	{"A", "s", k_uaddr, C::uaddr, P::uaddr},
	{"c", "c", k_csi, C::csi, P::sint},
	{"C", "s", k_csi, C::csi, P::echr},
	{"d", "d", k_xint, C::dint, P::dint},
	{"e", "e", k_fp, C::fp, P::fp},
	{"E", "E", k_fp, C::fp, P::fp},
	{"f", "f", k_fp, C::fp, P::fp},
	{"g", "g", k_fp, C::fp, P::fp},
	{"G", "G", k_fp, C::fp, P::fp},
	{"hd", "d", "short", C::exact_type, P::sint},
	{"hi", "i", "short", C::exact_type, P::sint},
	{"ho", "o", "unsigned short", C::exact_type, P::uint},
	{"hu", "u", "unsigned short", C::exact_type, P::uint},
	{"hx", "x", "short", C::xshort, P::uint},
	{"hX", "X", "short", C::xshort, P::uint},
	{"i", "i", k_xint, C::xint, P::sint},
	{"I", "s", k_cstr, C::str, P::inetaddr},
	{"k", "s", "stack", C::stack, P::stack},
	{"lc", "lc", "int", C::exact_type, P::sint},
	{"ld", "d", "long", C::exact_type, P::sint},
	{"li", "i", "long", C::exact_type, P::sint},
	{"lo", "o", "unsigned long", C::exact_type, P::uint},
	{"lu", "u", "unsigned long", C::exact_type, P::uint},
	{"ls", "ls", k_wstr, C::wstr, P::wstr},
	{"lx", "x", "long", C::xlong, P::uint},
	{"lX", "X", "long", C::xlong, P::uint},
	{"lld", "d", "long long", C::exact_type, P::sint},
	{"lli", "i", "long long", C::exact_type, P::sint},
	{"llo", "o", "unsigned long long", C::exact_type, P::uint},
	{"llu", "u", "unsigned long long", C::exact_type, P::uint},
	{"llx", "x", "long long", C::xlonglong, P::uint},
	{"llX", "X", "long long", C::xlonglong, P::uint},
	{"Le", "e", "long double", C::exact_type, P::fp},
	{"LE", "E", "long double", C::exact_type, P::fp},
	{"Lf", "f", "long double", C::exact_type, P::fp},
	{"Lg", "g", "long double", C::exact_type, P::fp},
	{"LG", "G", "long double", C::exact_type, P::fp},
	{"o", "o", k_xint, C::xint, P::uint},
	{"p", "x", k_addr, C::addr, P::uint},
	{"P", "s", "uint16_t", C::exact_type, P::port},
	{"s", "s", k_cstr, C::str, P::cstr},
	{"S", "s", k_cstr, C::str, P::estr},
	{"T", "s", "int64_t", C::time, P::time822},
	{"u", "u", k_xint, C::xint, P::uint},
	{"wc", "lc", "int", C::exact_type, P::sint},
	{"ws", "ls", k_wstr, C::wstr, P::wstr},
	{"x", "x", k_xint, C::xint, P::uint},
	{"X", "X", k_xint, C::xint, P::uint},
	{"Y", "s", "int64_t", C::time, P::time},
	{"%", "%", "void", C::pct, P::pct},
};

constexpr size_t k_nconv = std::size(k_table);

[[noreturn]] void fail(const std::string &tag, const std::string &msg)
{
	throw format_error(tag, msg);
}

// The size and signedness an exact_type prototype names, as CTF's
// ctf_type_compat() compares integer encodings (LP64).
struct proto_enc {
	uint32_t size;
	bool is_signed;
	bool is_float;
};

std::optional<proto_enc> proto_encoding(std::string_view t)
{
	if (t == "short")
		return proto_enc{2, true, false};
	if (t == "unsigned short" || t == "uint16_t")
		return proto_enc{2, false, false};
	if (t == "int")
		return proto_enc{4, true, false};
	if (t == "long" || t == "long long" || t == "int64_t")
		return proto_enc{8, true, false};
	if (t == "unsigned long" || t == "unsigned long long")
		return proto_enc{8, false, false};
	if (t == "long double")
		return proto_enc{16, true, true};
	return std::nullopt;
}

bool one_of(const std::string &n, std::initializer_list<std::string_view> names)
{
	for (auto s : names)
		if (n == s)
			return true;
	return false;
}

bool passes(const conv_spec &c, const arg_type &a, bool target_set)
{
	switch (c.check) {
	case C::kaddr: return a.is_pointer || a.is_integer || a.is_symaddr;
	case C::uaddr:
		if (a.is_usymaddr)
			return true;
		return target_set && (a.is_pointer || a.is_integer);
	case C::csi: return a.is_integer && a.size <= 4;
	case C::dint:
	case C::xint: return a.is_integer;
	case C::fp: return a.is_float;
	case C::addr: return a.is_pointer || a.is_integer;
	case C::stack: return a.is_stack;
	case C::time: return a.is_integer && a.size == 8;
	case C::str: return a.is_string || a.is_char_array;
	case C::wstr: return a.is_wchar_array;
	case C::exact_type: {
		auto e = proto_encoding(c.proto);
		if (!e)
			return false;
		if (e->is_float)
			return a.is_float && a.size == e->size;
		return a.is_integer && !a.is_pointer && a.size == e->size &&
		       a.is_signed == e->is_signed;
	}
	case C::xshort: return one_of(a.resolved, {"short", "signed short", "unsigned short"});
	case C::xlong: return one_of(a.resolved, {"long", "signed long", "unsigned long"});
	case C::xlonglong:
		if (one_of(a.resolved, {"long long", "signed long long", "unsigned long long"}))
			return true;
		for (const auto &t : a.typedefs)
			if (t == "int64_t" || t == "uint64_t")
				return true;
		return false;
	case C::pct: return true;
	}
	return false;
}

} // namespace

std::span<const conv_spec> conversions()
{
	return {k_table, k_nconv};
}

const conv_spec *lookup(std::string_view name)
{
	if (name.empty())
		return nullptr;
	for (size_t i = 0; i < k_nconv; i++)
		if (k_table[i].name == name)
			return &k_table[i];
	return nullptr;
}

size_t format::nargs() const
{
	size_t n = 0;
	for (const auto &p : pieces) {
		if (!p.conv || p.conv->check == C::pct)
			continue;
		n += (p.flags & k_dynwidth) ? 1 : 0;
		n += (p.flags & k_dynprec) ? 1 : 0;
		n += (p.flags & k_agg) ? 0 : 1;
	}
	return n;
}

bool format::has_agg_conv() const
{
	for (const auto &p : pieces)
		if (p.conv && (p.flags & k_agg))
			return true;
	return false;
}

// dt_printf_create(): scan for '%', collect flags, width, precision and
// the conversion name (h, l, L and w prefixes, then one character).
format parse(std::string_view text)
{
	format f;
	f.text = std::string(text);
	const std::string &s = f.text;
	size_t q = 0;
	unsigned argc = 0;

	for (;;) {
		size_t p = s.find('%', q);
		if (p == std::string::npos)
			break;
		piece pc;
		argc++;
		pc.prefix = s.substr(q, p - q);

		std::string name;
		int digits = 0;
		int dot = 0;
		bool done = false;
		while (!done) {
			char c = p + 1 < s.size() ? s[++p] : (p = s.size(), '\0');
			switch (c) {
			case '0':
			case '1':
			case '2':
			case '3':
			case '4':
			case '5':
			case '6':
			case '7':
			case '8':
			case '9': {
				if (dot == 0 && digits == 0 && c == '0') {
					pc.flags |= k_zpad;
					pc.flags &= ~k_left;
					break;
				}
				int n = 0;
				while (p < s.size() &&
				       std::isdigit(static_cast<unsigned char>(s[p]))) {
					n = n * 10 + (s[p++] - '0');
					// illumos lets the int overflow; a width or
					// precision this large is a mistake either way.
					if (n > k_max_width)
						fail("", "format conversion #" +
								 std::to_string(argc) +
								 " has a width or precision "
								 "larger than " +
								 std::to_string(k_max_width));
				}
				p--;
				if (dot)
					pc.prec = n;
				else
					pc.width = n;
				digits++;
				break;
			}
			case '#': pc.flags |= k_alt; break;
			case '*': {
				uint32_t n = dot ? k_dynprec : k_dynwidth;
				// illumos' message always says "precision" here.
				if (pc.flags & n)
					fail("", "format conversion #" + std::to_string(argc) +
							 " has more than one '*' specified for the "
							 "output precision");
				pc.flags |= n;
				break;
			}
			case '+': pc.flags |= k_spos; break;
			case '-':
				pc.flags |= k_left;
				pc.flags &= ~k_zpad;
				break;
			case '.':
				if (dot++ != 0)
					fail("", "format conversion #" + std::to_string(argc) +
							 " has more than one '.' specified");
				digits = 0;
				break;
			case '?':
				pc.width = 16; // LP64
				break;
			case '@': pc.flags |= k_agg; break;
			case '\'': pc.flags |= k_group; break;
			case ' ': pc.flags |= k_space; break;
			case '$':
				fail("", "format conversion #" + std::to_string(argc) +
						 " uses unsupported positional format (%n$)");
			case '%':
				if (s[p - 1] == '%') {
					name += c;
					done = true;
					break;
				}
				fail("", "format conversion #" + std::to_string(argc) +
						 " cannot be combined with other format flags: %%");
			case '\0':
				fail("", "format conversion #" + std::to_string(argc) +
						 " name expected before end of format string");
			case 'h':
			case 'l':
			case 'L':
			case 'w':
				if (name.size() < 6)
					name += c;
				break;
			default:
				name += c;
				done = true;
				break;
			}
		}
		pc.conv = lookup(name);
		if (!pc.conv)
			fail("", "format conversion #" + std::to_string(argc) + " is undefined: %" +
					 name);
		f.pieces.push_back(std::move(pc));
		q = p + 1;
	}
	if (q < s.size() || s.empty()) {
		piece pc;
		pc.prefix = s.substr(q);
		f.pieces.push_back(std::move(pc));
	}
	return f;
}

// dt_printf_validate().
std::vector<checked_conv> check_args(const format &fmt, std::string_view func,
				     std::span<const arg_type> args, int foff, bool printa,
				     bool agg_is_count, bool target_set, bool exact_len)
{
	const std::string fn(func);
	if (fmt.text.empty())
		fail("D_PRINTF_FMT_EMPTY", fn + "( ) format string is empty");

	arg_type aggval;
	aggval.is_integer = true;
	aggval.size = 8;
	aggval.is_signed = !agg_is_count;
	aggval.name = agg_is_count ? "uint64_t" : "int64_t";
	aggval.resolved = agg_is_count ? "unsigned long" : "long";
	aggval.typedefs = {aggval.name};

	std::vector<checked_conv> out;
	size_t j = 0; // next argument
	for (size_t i = 0; i < fmt.pieces.size(); i++) {
		const piece &pc = fmt.pieces[i];
		const conv_spec *c = pc.conv;
		if (!c || c->check == C::pct)
			continue;
		const std::string num = std::to_string(i + 1);
		const std::string cname(c->name);

		std::vector<std::string_view> dyns;
		if (pc.flags & k_dynwidth)
			dyns.emplace_back("*");
		if (pc.flags & k_dynprec)
			dyns.emplace_back(".*");
		for (auto d : dyns) {
			if (j >= args.size())
				fail("D_PRINTF_DYN_PROTO",
				     fn + "( ) prototype mismatch: conversion #" + num + " (%" +
					     cname + ") is missing a corresponding \"" +
					     std::string(d) + "\" argument");
			if (!args[j].is_integer)
				fail("D_PRINTF_DYN_TYPE",
				     fn + "( ) argument #" + std::to_string(j + foff + 1) +
					     " is incompatible with conversion #" + num +
					     " prototype:\n\tconversion: % " + std::string(d) +
					     " " + cname +
					     "\n\t prototype: int\n\t  argument: " + args[j].name);
			j++;
		}

		const arg_type *a;
		std::string vname;
		if (pc.flags & k_agg) {
			if (!printa)
				fail("D_PRINTF_AGG_CONV",
				     "%@ conversion requires an aggregation and "
				     "is not for use with " +
					     fn + "( )");
			vname = "aggregating action";
			a = &aggval;
		} else if (j >= args.size()) {
			fail("D_PRINTF_ARG_PROTO",
			     fn + "( ) prototype mismatch: conversion #" + num + " (%" + cname +
				     ") is missing a corresponding value argument");
		} else {
			vname = "argument #" + std::to_string(j + foff + 1);
			a = &args[j++];
		}
		if (!passes(*c, *a, target_set))
			fail("D_PRINTF_ARG_TYPE",
			     fn + "( ) " + vname + " is incompatible with conversion #" + num +
				     " prototype:\n\tconversion: %" + cname + "\n\t prototype: " +
				     std::string(c->proto) + "\n\t  argument: " + a->name);
		out.push_back({i, a->is_signed});
	}
	if (exact_len && j < args.size())
		fail("D_PRINTF_ARG_EXTRA", fn + "( ) prototype mismatch: only " +
						   std::to_string(j) +
						   " arguments required by this format string");
	return out;
}

} // namespace dt::fmt
