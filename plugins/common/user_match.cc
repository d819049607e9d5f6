// SPDX-License-Identifier: MIT
// Query interpretation for the pid provider (see match.hpp).
#include "user_match.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace dt::plugin::user {

bool glob_match(const std::string &pattern, const char *str)
{
	// fnmatch(3) is gmatch(3GEN)'s POSIX twin: the same metacharacters,
	// and with no flags `*` also crosses '/' and leading dots.
	return dt::sdk::field_matches(pattern.c_str(), str);
}

std::optional<int64_t> literal_pid(std::string_view provider)
{
	constexpr std::string_view prefix = "pid";
	if (!provider.starts_with(prefix) || provider.size() == prefix.size())
		return std::nullopt;
	std::string_view digits = provider.substr(prefix.size());
	if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
		return std::nullopt;
	int64_t v = 0;
	auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
	if (ec != std::errc() || p != digits.data() + digits.size() || v > INT32_MAX)
		return -1;
	return v;
}

std::string so_stem(std::string_view basename)
{
	for (size_t at = basename.find(".so"); at != std::string_view::npos;
	     at = basename.find(".so", at + 1)) {
		size_t after = at + 3;
		if (after == basename.size() || basename[after] == '.')
			return std::string(basename.substr(0, at));
	}
	return std::string(basename);
}

std::optional<std::string> module_for(const std::string &mod, const object_name &obj)
{
	if (glob_match(mod, obj.basename.c_str()))
		return obj.basename;
	// The aliases are names, not patterns (illumos resolves a literal
	// module with Pname_to_map(); a glob only ever matches the object's
	// own name).
	if (is_glob(mod))
		return std::nullopt;
	std::string stem = so_stem(obj.basename);
	if (stem != obj.basename && (mod == stem || mod == stem + ".so"))
		return mod;
	if (mod == "a.out" && obj.is_main)
		return mod;
	if (mod == obj.path)
		return mod;
	return std::nullopt;
}

bool is_offset_name(std::string_view name)
{
	return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	});
}

bool wants_offsets(std::string_view mod, std::string_view func, std::string_view name)
{
	if (func.empty() && mod.empty())
		return false;
	return name.empty() || is_glob(name) || is_offset_name(name);
}

std::string offset_name(uint64_t off)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "%llx", static_cast<unsigned long long>(off));
	return buf;
}

} // namespace dt::plugin::user
