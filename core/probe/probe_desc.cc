// SPDX-License-Identifier: MIT
// Probe descriptions: parsing specifiers and DTrace's glob matching.
#include <dtrace/error.hpp>
#include <dtrace/plugin.hpp>
#include <dtrace/probe_desc.hpp>

#include <fnmatch.h>

#include <array>
#include <vector>

namespace dt {

std::string probe_desc::str() const
{
	return provider + ":" + mod + ":" + func + ":" + name;
}

probe_desc parse_probe_desc(std::string_view spec, desc_kind kind)
{
	probe_desc out;
	std::vector<std::string_view> parts;
	size_t start = 0;
	for (;;) {
		size_t colon = spec.find(':', start);
		parts.push_back(spec.substr(start, colon - start));
		if (colon == std::string_view::npos)
			break;
		start = colon + 1;
	}
	// dtrace_xstr2desc() reads the fields from the right, each with the
	// ':' before it: a leading ':' ends the last field read, so the empty
	// field before it is never one (-f :vmlinux:: is provider vmlinux).
	if (parts.size() > 1 && parts.front().empty())
		parts.erase(parts.begin());
	const size_t last = static_cast<size_t>(kind); // 0 provider .. 3 name
	if (parts.size() > last + 1)
		throw error(errc::usage, "Overspecified probe description");
	std::array<std::string *, 4> fields = {&out.provider, &out.mod, &out.func, &out.name};
	const size_t first = last + 1 - parts.size();
	for (size_t i = 0; i < parts.size(); i++)
		fields[first + i]->assign(parts[i]);
	return out;
}

bool is_glob(std::string_view pattern)
{
	return sdk::is_glob(pattern); // one definition, shared with plugins
}

bool glob_match(std::string_view pattern, std::string_view str)
{
	if (pattern.empty())
		return true;
	if (!is_glob(pattern))
		return pattern == str;
	// fnmatch(3) with no flags is gmatch(3GEN): *, ?, [...] with [!...]
	// (and glibc's [^...]), and backslash quoting; '/' and '.' are not
	// special. It needs NUL-terminated strings.
	std::string p(pattern), s(str);
	return fnmatch(p.c_str(), s.c_str(), 0) == 0;
}

bool desc_matches(const probe_desc &d, std::string_view provider, std::string_view mod,
		  std::string_view func, std::string_view name)
{
	return glob_match(d.provider, provider) && glob_match(d.mod, mod) &&
	       glob_match(d.func, func) && glob_match(d.name, name);
}

} // namespace dt
