// SPDX-License-Identifier: MIT
// Parsing a tracefs event's `format` file (see tracefs_format.hpp). The
// format is a small line-oriented text the kernel prints in
// kernel/trace/trace_events.c (f_show); no library parses it short of
// libtraceevent, which we would pull in for these few lines alone.
#include "tracefs_format.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace dt::plugin {
namespace {

std::string_view trim(std::string_view s)
{
	while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
		s.remove_prefix(1);
	while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
		s.remove_suffix(1);
	return s;
}

bool is_ident_char(char c)
{
	return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The number after `key` in a field line's attributes
// ("offset:16;\tsize:8;"), or 0.
uint32_t attribute(std::string_view attrs, std::string_view key)
{
	size_t at = attrs.find(key);
	if (at == std::string_view::npos)
		return 0;
	std::string_view v = trim(attrs.substr(at + key.size()));
	uint32_t n = 0;
	std::from_chars(v.data(), v.data() + v.size(), n);
	return n;
}

} // namespace

bool split_field_decl(std::string_view decl, format_field &out)
{
	decl = trim(decl);
	// An array's bounds follow the name: "char comm[16]".
	std::string_view bounds;
	if (!decl.empty() && decl.back() == ']') {
		size_t open = decl.rfind('[');
		if (open == std::string_view::npos)
			return false;
		bounds = decl.substr(open);
		decl = trim(decl.substr(0, open));
	}
	size_t start = decl.size();
	while (start > 0 && is_ident_char(decl[start - 1]))
		start--;
	if (start == decl.size() || start == 0)
		return false; // no name, or a name with no type
	std::string_view type = trim(decl.substr(0, start));
	if (type.empty())
		return false;
	out.name = std::string(decl.substr(start));
	out.type = std::string(type);
	out.type += bounds;
	return true;
}

bool parse_event_format(std::string_view text, event_format &out)
{
	out = event_format{};
	bool in_format = false;
	while (!text.empty()) {
		size_t nl = text.find('\n');
		std::string_view line = text.substr(0, nl);
		text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
		std::string_view t = trim(line);
		if (t.starts_with("name:")) {
			out.name = std::string(trim(t.substr(5)));
		} else if (t.starts_with("ID:")) {
			std::string_view v = trim(t.substr(3));
			auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out.id);
			out.has_id = ec == std::errc() && p == v.data() + v.size();
		} else if (t == "format:") {
			in_format = true;
		} else if (t.starts_with("print fmt:")) {
			break;
		} else if (in_format && t.starts_with("field:")) {
			std::string_view decl = t.substr(6);
			std::string_view rest = decl.substr(std::min(decl.find(';'), decl.size()));
			decl = decl.substr(0, decl.find(';'));
			format_field f;
			if (!split_field_decl(decl, f))
				continue;
			f.offset = attribute(rest, "offset:");
			f.size = attribute(rest, "size:");
			f.is_signed = attribute(rest, "signed:") != 0;
			out.fields.push_back(std::move(f));
		}
	}
	return in_format;
}

std::vector<format_field> syscall_args(const event_format &f)
{
	std::vector<format_field> out;
	bool after = false;
	for (const auto &field : f.fields) {
		if (after)
			out.push_back(field);
		else if (field.name == "__syscall_nr")
			after = true;
	}
	return out;
}

} // namespace dt::plugin
