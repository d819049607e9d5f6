// SPDX-License-Identifier: MIT
// How the user-space providers (pid, usdt) read a probe query: which
// processes a provider glob names, which objects a module name names (with
// the classic DTrace aliases `libc` and `a.out`), and when pid offset
// probes are wanted. Pure string logic, unit-tested on its own
// (plugins/pid/tests/pid_match_test.cc).
#pragma once

#include <dtrace/plugin.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dt::plugin::user {

// True if `pattern` contains a glob metacharacter (* ? [ \): the SDK's.
using dt::sdk::is_glob;

// DTrace glob match (fnmatch(3) without flags: `*`, `?`, `[...]`, `\`).
// An empty pattern matches anything (dt::sdk::field_matches()).
[[nodiscard]] bool glob_match(const std::string &pattern, const char *str);

// "pid1234" -> 1234. nullopt if `provider` is not `pid` followed by
// decimal digits. A number too large for a pid_t gives -1 (a process that
// cannot exist, reported as such).
[[nodiscard]] std::optional<int64_t> literal_pid(std::string_view provider);

// libc.so.6 -> libc, ld-linux-x86-64.so.2 -> ld-linux-x86-64; a name
// without ".so" (followed by "." or the end) is returned unchanged.
[[nodiscard]] std::string so_stem(std::string_view basename);

// The object a module name may name, as /proc/PID/maps shows it.
struct object_name {
	std::string path;     // path in the process (/usr/lib/.../libc.so.6)
	std::string basename; // libc.so.6
	bool is_main = false; // the process's executable (/proc/PID/exe)
};

// The module name to report for `obj` under the query's `mod`, or nullopt
// if the object cannot match (and need not be opened):
//   ""/glob matching the basename           -> the basename
//   literal "libc" or "libc.so" (so_stem)   -> as written (illumos dt_pid)
//   literal "a.out" on the executable       -> "a.out"
//   literal full path of the object         -> as written
[[nodiscard]] std::optional<std::string> module_for(const std::string &mod, const object_name &obj);

// Are instruction-offset probes wanted? Only when a function or a module
// is named (func or mod non-empty: `pid123:a.out::` is every instruction
// of the executable, as on illumos) and the probe name is empty, a glob or
// hex digits. `pid123:::` and `dtrace -l -p 123` stay entry and return.
[[nodiscard]] bool wants_offsets(std::string_view mod, std::string_view func,
				 std::string_view name);

// Is `name` hex digits only (an offset probe's name)? "" is not.
[[nodiscard]] bool is_offset_name(std::string_view name);

// Probe name of an offset: lowercase hex without 0x ("0", "1c").
[[nodiscard]] std::string offset_name(uint64_t off);

} // namespace dt::plugin::user
