// SPDX-License-Identifier: MIT
// Stability attribute names (illumos dt_attr.c wording).
#include <dtrace/attributes.hpp>

#include <algorithm>
#include <array>

namespace dt {

std::string_view stability_name(unsigned s)
{
	static constexpr std::array<std::string_view, 8> names = {
		"Internal", "Private", "Obsolete", "External",
		"Unstable", "Evolving", "Stable", "Standard"};
	return s < names.size() ? names[s] : "Unknown";
}

std::string_view class_name(unsigned c)
{
	static constexpr std::array<std::string_view, 6> names = {
		"Unknown", "CPU", "Platform", "Group", "ISA", "Common"};
	return c < names.size() ? names[c] : "Unknown";
}

dt_attribute_t attr_min(dt_attribute_t a, dt_attribute_t b)
{
	return {std::min(a.name, b.name), std::min(a.data, b.data),
		std::min(a.klass, b.klass)};
}

} // namespace dt
