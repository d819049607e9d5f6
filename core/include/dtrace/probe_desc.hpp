// SPDX-License-Identifier: MIT
//
// dtrace/probe_desc.hpp - probe descriptions and DTrace's glob matching.
//
// A probe description names probes as provider:module:function:name.
// Each field is a glob; an empty field matches anything. A description
// with fewer than four fields is aligned to the right: "read:entry" is
// function "read", name "entry" - except that -P, -m and -f anchor the
// last field given at the provider, module and function respectively.
#pragma once

#include <dtrace/api.hpp>
#include <dtrace/error.hpp>

#include <string>
#include <string_view>

DT_API_BEGIN

namespace dt {

struct probe_desc {
	std::string provider;
	std::string mod;
	std::string func;
	std::string name;

	// "provider:mod:func:name", as DTrace prints a description.
	[[nodiscard]] std::string str() const;
	bool operator==(const probe_desc &) const = default;
};

// Which side of a function boundary a probe fires on, as -F (flowindent)
// shows it: entry indents, return outdents (plugin.h dt_flow; the provider
// says it, see dt::probe_fire).
enum class probe_flow : unsigned char { none, entry, ret };

// Which field the last component of a specifier names (the -P/-m/-f/-n
// options; a script's clause uses name).
enum class desc_kind { provider, mod, func, name };

// Parse a specifier. Throws dt::error (errc::usage, "Overspecified probe
// description", dtrace_xstr2desc()'s words) on more than four fields or
// more fields than the kind allows ("-P a:b"). As there, fields are read
// from the right and a leading ':' only closes the leftmost field read
// ("-f :vmlinux::" is provider vmlinux, "-n ::::BEGIN" four fields).
[[nodiscard]] probe_desc parse_probe_desc(std::string_view spec, desc_kind kind);

// True if `pattern` contains a glob metacharacter (* ? [ \).
[[nodiscard]] bool is_glob(std::string_view pattern);

// DTrace's gmatch(3GEN): `*`, `?`, `[...]` with ranges and `!` or `^`
// negation, `\` quoting. An empty pattern matches anything.
[[nodiscard]] bool glob_match(std::string_view pattern, std::string_view str);

// True if every field of `d` matches the corresponding field given.
[[nodiscard]] bool desc_matches(const probe_desc &d, std::string_view provider,
				std::string_view mod, std::string_view func,
				std::string_view name);

} // namespace dt

DT_API_END
