// SPDX-License-Identifier: MIT
// Stability attribute names (illumos dt_attr.c wording).
#include <dtrace/attributes.hpp>

#include <strings.h>

#include <algorithm>
#include <array>

namespace dt {

std::string_view stability_name(unsigned s)
{
	static constexpr std::array<std::string_view, 8> names = {
		"Internal", "Private",	"Obsolete", "External",
		"Unstable", "Evolving", "Stable",   "Standard"};
	return s < names.size() ? names[s] : "Unknown";
}

std::string_view class_name(unsigned c)
{
	static constexpr std::array<std::string_view, 6> names = {"Unknown", "CPU", "Platform",
								  "Group",   "ISA", "Common"};
	return c < names.size() ? names[c] : "Unknown";
}

dt_attribute_t attr_min(dt_attribute_t a, dt_attribute_t b)
{
	return {std::min(a.name, b.name), std::min(a.data, b.data), std::min(a.klass, b.klass)};
}

bool attr_below(dt_attribute_t a, dt_attribute_t min)
{
	return a.name < min.name || a.data < min.data || a.klass < min.klass;
}

std::string attr_string(dt_attribute_t a)
{
	return std::string(stability_name(a.name)) + "/" + std::string(stability_name(a.data)) +
	       "/" + std::string(class_name(a.klass));
}

std::optional<dt_attribute_t> parse_attr(std::string_view s)
{
	dt_attribute_t a = k_attr_max;
	uint8_t *fields[] = {&a.name, &a.data, &a.klass};
	size_t field = 0;
	while (!s.empty()) {
		if (field == 3)
			return std::nullopt;
		size_t slash = s.find('/');
		std::string w(s.substr(0, slash));
		s = slash == std::string_view::npos ? std::string_view() : s.substr(slash + 1);
		unsigned n = field == 2 ? 6 : 8;
		unsigned v = 0;
		for (; v < n; v++)
			if (strcasecmp(w.c_str(),
				       std::string(field == 2 ? class_name(v) : stability_name(v))
					       .c_str()) == 0)
				break;
		if (v == n)
			return std::nullopt;
		*fields[field++] = static_cast<uint8_t>(v);
	}
	return a;
}

} // namespace dt
