// SPDX-License-Identifier: MIT
//
// compiler/btf/kernel_syms.hpp - kernel symbols for D's scoping operator
// (`sym, vmlinux`sym, mod`sym): illumos resolves them from the kernel's
// ELF symbol tables; Linux publishes them in /proc/kallsyms
// ("ADDRESS TYPE NAME [MODULE]"), or $DTRACE_KALLSYMS_PATH when set
// (tests point it at a file of their own).
//
// The address comes from kallsyms, the type from BTF (kernel_types:
// the variable's VAR, or FUNC for a function). A kernel built without
// CONFIG_KALLSYMS_ALL lists only functions, and one whose BTF was made
// without global variables has types for per-CPU variables only: such
// symbols are unknown, or known without a type, and the compiler says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

namespace dt::compiler {

struct kernel_sym {
	uint64_t addr = 0;
	char kind = '?';    // kallsyms' letter: T t D d B b R r ...
	std::string module; // "vmlinux" for the kernel itself
};

class kernel_syms {
public:
	// scope: "" for any module (the kernel first), else the module name
	// ("vmlinux" is the kernel). Reads kallsyms on first use; nullopt if
	// the symbol is not there or its address is hidden (kptr_restrict).
	[[nodiscard]] std::optional<kernel_sym> find(const std::string &scope,
						     const std::string &name);

private:
	void load();
	bool loaded_ = false;
	std::unordered_multimap<std::string, kernel_sym> syms_;
};

} // namespace dt::compiler
