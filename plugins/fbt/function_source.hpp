// SPDX-License-Identifier: MIT
// Where fbt's function list comes from, and the rules that decide which
// names become probes:
//
//   1. <tracefs>/available_filter_functions   "func" or "func [module]"
//      (what ftrace can patch: exactly the traceable functions)
//   2. /proc/kallsyms text symbols            "addr t func\t[module]"
//      (when 1 is unreadable, e.g. EPERM under lockdown)
//
// Whatever the source, a name is skipped if it is a patchable-entry or
// CFI stub (__pfx_, __cfi_), a compiler-split part (anything with '.':
// .cold, .isra.0, .constprop.0), an ftrace placeholder
// (__ftrace_invalid_address___N), in a pseudo-module that is not a kernel
// module ([bpf] programs, [__builtin__ftrace] trampolines), in the tracer
// itself (dtrace.ko, dtrace_* provider modules), or on the
// kprobe blacklist (/sys/kernel/debug/kprobes/blacklist, when readable).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace dt::plugin::fbt {

// One function as a source line names it; views into that line.
struct function_entry {
	std::string_view mod;  // "vmlinux" for the core kernel
	std::string_view func;
	uint64_t addr = 0; // 0 where the source gives none
};

// One line of available_filter_functions. False for a blank line.
[[nodiscard]] bool parse_filter_function_line(std::string_view line, function_entry &out);

// One line of /proc/kallsyms. False unless it is a text symbol (t/T).
[[nodiscard]] bool parse_kallsyms_line(std::string_view line, function_entry &out);

// One line of the kprobe blacklist ("0xa-0xb\tname" or "... name [mod]").
[[nodiscard]] bool parse_blacklist_line(std::string_view line, std::string_view &name);

// The name rules above, except the blacklist.
[[nodiscard]] bool is_probeable(const function_entry &e);

// The kprobe blacklist's names; empty if the file is unreadable.
[[nodiscard]] std::unordered_set<std::string> read_kprobe_blacklist(
	const char *path = "/sys/kernel/debug/kprobes/blacklist");

enum class source_kind { none, filter_functions, kallsyms };

// Call fn for every line of the first readable source that parses (the
// name rules are the caller's). fn returns true to stop. Sets `used` to
// the source read and `why` to why a preferred one was not; returns 0, or
// a negative errno when no source is readable.
int walk_functions(const char *tracefs,
		   const std::function<bool(const function_entry &)> &fn,
		   source_kind &used, std::string &why);

[[nodiscard]] const char *source_name(source_kind k);

// Fill in the address of each "MODULE FUNCTION" key of `wanted` from a
// kallsyms file's text symbols: the first symbol of that name in that
// module, the one the kprobe core's lookup by name finds. Keys not there
// keep theirs (0), and so do all where addresses are hidden (shown as 0
// to non-root). Returns 0, or a negative errno when the file is unreadable.
int kallsyms_addresses(std::unordered_map<std::string, uint64_t> &wanted,
		       const char *path = "/proc/kallsyms");

} // namespace dt::plugin::fbt
