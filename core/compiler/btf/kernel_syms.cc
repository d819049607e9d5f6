// SPDX-License-Identifier: MIT
//
// compiler/btf/kernel_syms.cc - /proc/kallsyms lookups (see kernel_syms.hpp).
#include "kernel_syms.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace dt::compiler {

namespace {

const char *kallsyms_path()
{
	const char *p = std::getenv("DTRACE_KALLSYMS_PATH");
	return p && *p ? p : "/proc/kallsyms";
}

} // namespace

void kernel_syms::load()
{
	loaded_ = true;
	std::ifstream in(kallsyms_path());
	std::string line;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string addr, kind, name, mod;
		if (!(ls >> addr >> kind >> name) || kind.size() != 1)
			continue;
		ls >> mod;
		kernel_sym s;
		s.addr = std::strtoull(addr.c_str(), nullptr, 16);
		s.kind = kind[0];
		if (mod.size() > 2 && mod.front() == '[' && mod.back() == ']')
			s.module = mod.substr(1, mod.size() - 2);
		else
			s.module = "vmlinux";
		syms_.emplace(std::move(name), std::move(s));
	}
}

std::optional<kernel_sym> kernel_syms::find(const std::string &scope, const std::string &name)
{
	if (!loaded_)
		load();
	std::optional<kernel_sym> best;
	auto [b, e] = syms_.equal_range(name);
	for (auto it = b; it != e; ++it) {
		const kernel_sym &s = it->second;
		if (s.addr == 0)
			continue; // hidden by kptr_restrict: no address to read
		if (!scope.empty() && s.module != scope)
			continue;
		// Unscoped: the kernel's own symbol before a module's.
		if (!best || (s.module == "vmlinux" && best->module != "vmlinux"))
			best = s;
	}
	return best;
}

} // namespace dt::compiler
