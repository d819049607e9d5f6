// SPDX-License-Identifier: MIT
// A tracefs event's fields as a probe's arguments: see record_args.hpp.
#include "record_args.hpp"

#include <dtrace/plugin.h>

#include <array>
#include <cctype>

namespace dt::plugin::sdt {
namespace {

std::string_view trim(std::string_view s)
{
	while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
		s.remove_prefix(1);
	while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
		s.remove_suffix(1);
	return s;
}

bool strip_prefix(std::string_view &s, std::string_view prefix)
{
	if (!s.starts_with(prefix))
		return false;
	s = trim(s.substr(prefix.size()));
	return true;
}

// The integer D type of a scalar of `size` bytes.
std::string int_of(uint32_t size, bool is_signed)
{
	std::string t = is_signed ? "int" : "uint";
	return t + std::to_string(size == 0 ? 64 : size * 8) + "_t";
}

// "T" -> "T *", or "void *" when T's base type is not known.
std::string pointer_to(std::string_view elem, const type_known_fn &known)
{
	elem = trim(elem);
	if (elem.empty() || !known(base_type(elem)))
		return "void *";
	std::string t(elem);
	if (t.back() != '*')
		t += ' ';
	return t + "*";
}

// The D type of an array of `elem` held in the record: a string for
// characters (D reads it up to its NUL, or strsize), else a pointer.
std::string string_or_pointer_to(std::string_view elem, const type_known_fn &known)
{
	std::string base = base_type(elem);
	if (base == "char" || base == "signed char" || base == "unsigned char")
		return "string";
	return pointer_to(elem, known);
}

bool is_pow2_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

} // namespace

std::string base_type(std::string_view type)
{
	std::string out;
	std::string_view s = trim(type);
	while (!s.empty()) {
		size_t end = 0;
		while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end])) &&
		       s[end] != '*')
			end++;
		std::string_view word = s.substr(0, end);
		s = trim(s.substr(end == 0 ? 1 : end)); // a lone '*' is skipped
		if (word.empty() || word == "const" || word == "volatile")
			continue;
		if (!out.empty())
			out += ' ';
		out += word;
	}
	return out;
}

bool is_c_base_type(std::string_view base)
{
	static constexpr std::array<std::string_view, 9> k_words = {
		"void", "char", "short", "int", "long", "signed", "unsigned", "_Bool", "float"};
	if (base.empty())
		return false;
	while (!base.empty()) {
		size_t sp = base.find(' ');
		std::string_view w = base.substr(0, sp);
		bool ok = false;
		for (std::string_view k : k_words)
			ok = ok || w == k;
		if (!ok && w != "double")
			return false;
		base.remove_prefix(sp == std::string_view::npos ? base.size() : sp + 1);
	}
	return true;
}

record_layout layout_of(const event_format &f, const type_known_fn &known)
{
	record_layout out;
	for (const format_field &field : f.fields) {
		out.size = std::max(out.size, field.offset + field.size);
		if (field.name.starts_with("common_"))
			continue;
		out.fields++;
		if (out.args.size() >= k_max_args)
			continue;
		record_arg a;
		a.name = field.name;
		a.offset = static_cast<int32_t>(field.offset);
		std::string_view type = trim(field.type);
		bool data_loc = strip_prefix(type, "__data_loc");
		bool rel_loc = !data_loc && strip_prefix(type, "__rel_loc");
		if (data_loc || rel_loc) {
			// A dynamic array: "char[]" -> string, "u64[]" -> u64 *.
			if (type.ends_with("[]"))
				type.remove_suffix(2);
			a.type = string_or_pointer_to(type, known);
			a.fmt = DT_BPF_TP_SIZE(4) |
				(data_loc ? DT_BPF_TP_DATA_LOC : DT_BPF_TP_REL_LOC);
		} else if (type.ends_with(']')) {
			// An array in the record: "char[16]" -> string, "u8[6]" ->
			// u8 *.
			a.type = string_or_pointer_to(type.substr(0, type.rfind('[')), known);
			a.fmt = DT_BPF_TP_ADDR;
		} else if (is_pow2_size(field.size) && field.offset % field.size == 0) {
			bool ptr = type.ends_with('*');
			if (known(base_type(type)))
				a.type = std::string(type);
			else
				a.type = ptr ? "void *" : int_of(field.size, field.is_signed);
			a.fmt = DT_BPF_TP_SIZE(field.size) |
				(field.is_signed ? DT_BPF_TP_SIGNED : 0);
		} else {
			// A struct held in the record, or a scalar the kernel
			// does not let a program load where it lies.
			a.type = pointer_to(type, known);
			a.fmt = DT_BPF_TP_ADDR;
		}
		out.args.push_back(std::move(a));
	}
	return out;
}

} // namespace dt::plugin::sdt
