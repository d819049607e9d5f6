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

} // namespace dt::engines
