// SPDX-License-Identifier: MIT
//
// engine/options.hpp - the option values every engine reads the same way:
// sizes (illumos dt_opt_size(): a number with an optional k, m, g or t
// suffix) and rates (dt_opt_rate(): a number with a time unit or hz; no
// unit means nanoseconds). A bad value throws engine_error("invalid value
// for option NAME: VALUE").
#pragma once

#include <cstdint>
#include <string>

namespace dt::engines {

[[nodiscard]] uint64_t parse_size_option(const std::string &name, const std::string &v);
[[nodiscard]] uint64_t parse_rate_option(const std::string &name, const std::string &v);

// What illumos' dtrace_setopt() says of NAME=VALUE (has_value false: the
// bare `-x NAME` or `#pragma D option NAME`), as dtrace_errmsg() words it:
// nullptr when the option is known and the value reads, else "Invalid
// option name" or "Invalid value for specified option". The one table of
// option names (dt_options.c) lives behind this; sizes, rates and the
// numeric run-time options (yes/no, on/off ... or a number) are checked
// for their form, free-form options (cpp paths, evaltime ...) only by name.
[[nodiscard]] const char *option_error(const std::string &name, const std::string &value,
				       bool has_value);
// A run-time option given one of dt_opt_runtime()'s negative words (no,
// disable, disabled, false, off, unset): illumos then leaves it unset,
// so `-x quiet=no` is not quiet.
[[nodiscard]] bool option_unsets(const std::string &name, const std::string &value);

} // namespace dt::engines
