// SPDX-License-Identifier: MIT
//
// compiler/diag.hpp - raising diagnostics inside the compiler.
//
// Every pass reports a user error with fail(tag, line, message): it throws
// d_error, which the driver turns into dt::compiler::compile_error, adding
// the file name and deciding whether "line N: " is shown (scripts from
// files: yes; -n specifiers: no, "in action list: " style regions instead,
// as illumos dt_set_errmsg). Tags are those of diagnostics.def.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dt::compiler {

enum class tag : uint16_t {
#define X(t) t,
#include "diagnostics.def"
#undef X
};

[[nodiscard]] const char *tag_name(tag t);
// The tag of that name ("D_PROC_FUNC"), for tags a provider names
// (dt::desc_refused); nullopt if diagnostics.def has none.
[[nodiscard]] std::optional<tag> tag_from_name(std::string_view name);

struct d_error : std::runtime_error {
	d_error(tag t, uint32_t l, const std::string &m, std::string r = "")
		: std::runtime_error(m), which(t), line(l), region(std::move(r))
	{
	}
	tag which;
	uint32_t line;
	std::string region; // "action list", "predicate", ... ("" if none)
};

[[noreturn]] inline void fail(tag t, uint32_t line, const std::string &msg)
{
	throw d_error(t, line, msg);
}

} // namespace dt::compiler
