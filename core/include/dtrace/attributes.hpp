// SPDX-License-Identifier: MIT
//
// dtrace/attributes.hpp - stability attributes and their names, as
// `dtrace -lv` and `dtrace -v` print them (illumos dt_attr.c), and the
// constants the compiler computes a statement's attributes from.
#pragma once

#include <dtrace/api.hpp>

#include <dtrace/plugin.h>

#include <optional>
#include <string>
#include <string_view>

DT_API_BEGIN

namespace dt {

// "Internal" ... "Standard"; "Unknown" for an out-of-range value.
[[nodiscard]] std::string_view stability_name(unsigned s);
// "Unknown" ... "Common".
[[nodiscard]] std::string_view class_name(unsigned c);
// Field-wise minimum (the least stable of the two), as dt_attr_min().
[[nodiscard]] dt_attribute_t attr_min(dt_attribute_t a, dt_attribute_t b);
// Is any field of `a` below the same field of `min` (dt_attr_cmp() < 0)?
[[nodiscard]] bool attr_below(dt_attribute_t a, dt_attribute_t min);
// "Unstable/Unstable/Common" (dtrace_attr2str()).
[[nodiscard]] std::string attr_string(dt_attribute_t a);
// dtrace_str2attr(): name[/data[/class]], words in any case; a field left
// out is the most stable value. nullopt for anything else.
[[nodiscard]] std::optional<dt_attribute_t> parse_attr(std::string_view s);

// illumos _dtrace_defattr: literals, user variables, most of the D
// language's identifiers (DT_ATTR_STABCMN).
inline constexpr dt_attribute_t k_attr_stable = {DT_STABILITY_STABLE, DT_STABILITY_STABLE,
						 DT_CLASS_COMMON};
// DT_ATTR_EVOLCMN: the subroutines illumos marks Evolving (htonl(), ...).
inline constexpr dt_attribute_t k_attr_evolving = {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING,
						   DT_CLASS_COMMON};
// _dtrace_maxattr: where a minimum over statements starts.
inline constexpr dt_attribute_t k_attr_max = {DT_STABILITY_STANDARD, DT_STABILITY_STANDARD,
					      DT_CLASS_COMMON};
// _dtrace_prvdesc: a description whose provider is empty or a glob, or
// that matched no probe.
inline constexpr dt_attribute_t k_attr_unstable = {DT_STABILITY_UNSTABLE, DT_STABILITY_UNSTABLE,
						   DT_CLASS_COMMON};
// _dtrace_symattr: kernel symbols (`sym) and their types.
inline constexpr dt_attribute_t k_attr_symbol = {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE,
						 DT_CLASS_UNKNOWN};

} // namespace dt

DT_API_END
