// SPDX-License-Identifier: MIT
//
// dtrace/attributes.hpp - stability attributes and their names, as
// `dtrace -lv` prints them.
#pragma once

#include <dtrace/api.hpp>

#include <dtrace/plugin.h>

#include <string_view>

DT_API_BEGIN

namespace dt {

// "Internal" ... "Standard"; "Unknown" for an out-of-range value.
[[nodiscard]] std::string_view stability_name(unsigned s);
// "Unknown" ... "Common".
[[nodiscard]] std::string_view class_name(unsigned c);
// Field-wise minimum (the least stable of the two), as dt_attr_min().
[[nodiscard]] dt_attribute_t attr_min(dt_attribute_t a, dt_attribute_t b);

} // namespace dt

DT_API_END
