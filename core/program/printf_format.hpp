// SPDX-License-Identifier: MIT
//
// program/printf_format.hpp - D's printf format strings: parse one into
// literal text and conversions (illumos dt_printf.c: dt_printf_create and
// the _dtrace_conversions dictionary), and check the arguments given to it
// (dt_printf_validate). Part of the program model: the compiler checks
// formats with it at compile time, the consumer (consumer/printf.cc)
// formats with it at run time.
//
//   "x=%-8d %s\n"  ─► parse() ─► [ {prefix "x=",  conv %d, flags '-', width 8},
//                                  {prefix " ",   conv %s},
//                                  {prefix "\n",  no conv} ]
//
// A parsed format is a list of pieces, each a literal prefix and optionally
// one conversion (the last piece may be literal text only), exactly the
// shape of illumos' dt_pfargd_t list. Escapes (\n, \t ...) are resolved by
// the compiler before the format reaches parse().
//
// Conversions accepted (illumos' table; only h, l, ll, L and w prefixes
// exist in D: "%zd" is "format conversion #1 is undefined: %z"):
//   %a %A %c %C %d %i %o %u %x %X %e %E %f %g %G %k %p %P %s %S %I %T %Y %%
//   %hd %hi %ho %hu %hx %hX %ld %li %lo %lu %lx %lX %lc %ls
//   %lld %lli %llo %llu %llx %llX %Le %LE %Lf %Lg %LG %wc %ws
// Flags # 0 - + ' (space), width, .precision, * and .* (an int argument
// each, width first), ? (pointer width: 16), @ (printa: the aggregation
// value).
//
// Errors: parse() throws format_error with illumos' wording, without the
// trailing newline ("format conversion #2 is undefined: %z"); check_args()
// throws format_error with the D_PRINTF_* tag and illumos' message.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dt::fmt {

// What argument a conversion accepts (illumos' pfcheck_* functions).
enum class arg_check : uint8_t {
	kaddr,	    // %a: pointer, integer or a kernel symbol address (sym/func)
	uaddr,	    // %A: a user symbol address (usym/ufunc), or pointer/integer with -p/-c
	csi,	    // %c %C: an integer of at most 4 bytes
	dint,	    // %d %i: any integer; an unsigned one prints as %u
	fp,	    // %e %E %f %g %G: float, double or long double
	xint,	    // %o %u %x %X: any integer
	addr,	    // %p: pointer or integer
	stack,	    // %k: stack() or ustack()
	time,	    // %T %Y: an 8-byte integer (nanoseconds since the epoch)
	str,	    // %s %S %I: string or char array
	wstr,	    // %ls %ws: array of 32-bit integers (wchar_t [])
	exact_type, // %hd %ld %lld %Lf %P %lc %wc ...: that exact type (conv_spec::proto)
	xshort,	    // %hx %hX: short, signed short or unsigned short
	xlong,	    // %lx %lX: long, signed long or unsigned long
	xlonglong,  // %llx %llX: [unsigned] long long, or a typedef [u]int64_t
	pct,	    // %%: no argument
};

// How a conversion prints its record (illumos' pfprint_* functions).
enum class arg_print : uint8_t {
	sint,	  // sign-extended by record size
	uint,	  // zero-extended by record size
	dint,	  // sint if the argument is signed, else uint
	fp,	  // float/double/long double by size
	kaddr,	  // kernel symbol+offset, else hex
	uaddr,	  // user symbol+offset, else hex
	stack,	  // stack()/ustack() frames
	time,	  // %Y: "2026 Nov 22 12:00:00"
	time822,  // %T: RFC 822, "Sun, 22 Nov 2026 12:00:00 UTC"
	cstr,	  // the string
	wstr,	  // a wide string
	estr,	  // %S: the string with C escapes for unprintable characters
	echr,	  // %C: one character, escaped like %S
	port,	  // %P: a port number, by service name when known
	inetaddr, // %I: an IP address string, by host name when known
	pct,	  // %%
};

// One entry of the conversion dictionary (illumos dt_pfconv_t).
struct conv_spec {
	std::string_view name;	// "d", "lld", "ws", "%"
	std::string_view ofmt;	// the C conversion it prints with ("s" for custom ones)
	std::string_view proto; // what it accepts, as illumos' error messages say it
	arg_check check;
	arg_print print;
};

// Conversion flags (illumos DT_PFCONV_*).
enum flag : uint32_t {
	k_alt = 1u << 0,      // '#'
	k_zpad = 1u << 1,     // '0'
	k_left = 1u << 2,     // '-'
	k_spos = 1u << 3,     // '+'
	k_dynwidth = 1u << 4, // '*'
	k_dynprec = 1u << 5,  // '.*'
	k_agg = 1u << 6,      // '@'
	k_group = 1u << 7,    // '\''
	k_space = 1u << 8,    // ' '
};

// The largest width or precision a format may give (illumos has no bound
// and overflows an int; a larger '*' argument at run time is clamped).
// Wide enough for what scripts write (%10000000d works, as in illumos),
// small enough that one conversion cannot ask for gigabytes.
constexpr int k_max_width = 1 << 26;

// One piece of a parsed format: literal text, then optionally a conversion.
struct piece {
	std::string prefix;		 // literal text before the conversion
	const conv_spec *conv = nullptr; // nullptr: this piece is text only
	uint32_t flags = 0;		 // flag bits
	int width = 0;			 // 0: none (illumos: %?  sets 16)
	int prec = 0;			 // 0: none (illumos prints no ".0")
};

struct format {
	std::string text;	   // the format string as given
	std::vector<piece> pieces; // in order; may be empty only for ""

	// Arguments the format consumes from the argument list: one per
	// conversion but %% and %@, plus one per '*'.
	[[nodiscard]] size_t nargs() const;
	[[nodiscard]] bool has_agg_conv() const; // some conversion has '@'
};

class format_error : public std::runtime_error {
public:
	format_error(std::string tag, const std::string &msg)
		: std::runtime_error(msg), tag_(std::move(tag))
	{
	}
	// "" for parse errors (illumos: EDT_COMPILER), else D_PRINTF_* / D_PRINTA_*.
	[[nodiscard]] const std::string &tag() const { return tag_; }

private:
	std::string tag_;
};

// Parse a format string. Throws format_error.
[[nodiscard]] format parse(std::string_view text);

// The dictionary entry for a conversion name ("d", "llx"), or nullptr.
[[nodiscard]] const conv_spec *lookup(std::string_view name);

// The whole dictionary, in illumos' order.
[[nodiscard]] std::span<const conv_spec> conversions();

// ---- argument checking (compile time) -----------------------------------

// What the compiler knows of one argument's type, enough to apply
// illumos' checks. Fill what applies; the rest stays false/empty.
struct arg_type {
	std::string name;		   // the D type name, for messages ("int", "char *")
	std::string resolved;		   // name with typedefs resolved ("unsigned long")
	std::vector<std::string> typedefs; // the typedef chain, outermost first ("uint64_t")
	uint32_t size = 0;		   // bytes
	bool is_integer = false;	   // integer or enum
	bool is_signed = false;
	bool is_pointer = false;
	bool is_float = false;
	bool is_string = false;	     // the D string type
	bool is_char_array = false;  // char [N]
	bool is_wchar_array = false; // an array of 32-bit integers
	bool is_stack = false;	     // stack() / ustack()
	bool is_symaddr = false;     // sym() / func()
	bool is_usymaddr = false;    // usym() / ufunc()
};

// What check_args() decided per conversion, for the record layout.
struct checked_conv {
	size_t piece = 0;	// index into format::pieces
	bool is_signed = false; // %d/%i: the argument is signed (prints as %d, not %u)
};

enum class fmt_kind : uint8_t { printf, printa, system, freopen, ftruncate };

// Check args against fmt as dt_printf_validate does. func is the action's
// name ("printf"); foff the number of arguments before the format (1 for
// printa's aggregation... as illumos counts in messages); target_set: -p/-c
// given (for %A); agg_is_count: printa of a count() (the %@ value is
// uint64_t, else int64_t). exact_len: extra arguments are an error.
// Throws format_error with the tag.
std::vector<checked_conv> check_args(const format &fmt, std::string_view func,
				     std::span<const arg_type> args, int foff, bool printa,
				     bool agg_is_count = false, bool target_set = false,
				     bool exact_len = true);

} // namespace dt::fmt
