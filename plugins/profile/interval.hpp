// SPDX-License-Identifier: MIT
// profile-N / tick-N names: the interval syntax of illumos profile.c
// (profile_provide()) and the probe cookie that carries the result.
//
//   name     := ("profile-" | "tick-") digits [unit]
//   unit     := ns nsec us usec ms msec s sec m min h hour d day hz
//               (case-insensitive, as profile.c's strcasecmp)
//   no unit  := hz: N firings per second, interval 1000000000 / N ns
//
// An interval of zero, one whose nanoseconds do not fit hrtime_t (a
// signed 64-bit count), and one shorter than profile_interval_min (200
// microseconds) name no probe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dt::plugin::profile {

// illumos profile.c profile_interval_min (NANOSEC / 5000).
inline constexpr uint64_t k_interval_min_ns = 200'000;
// The largest hrtime_t; bit 63 is then free for the cookie's kind flag.
inline constexpr uint64_t k_interval_max_ns = INT64_MAX;

enum class interval_status {
	ok,
	not_a_number,  // no digits where the number belongs
	zero,	       // N is 0
	unknown_unit,  // something other than a unit follows the digits
	overflow,      // N, or N times its unit, exceeds k_interval_max_ns
	below_minimum, // shorter than k_interval_min_ns
};

struct interval_result {
	interval_status status = interval_status::not_a_number;
	uint64_t ns = 0; // valid when status is ok
};

// Parse "N[unit]" (the part after "profile-" or "tick-").
[[nodiscard]] interval_result parse_interval(std::string_view text);

// Why an interval was refused, for a debug message ("ok" for ok).
[[nodiscard]] const char *describe(interval_status s);

// profile-N fires on every CPU; tick-N on one CPU only.
enum class timer_kind { profile, tick };

struct timer_spec {
	timer_kind kind = timer_kind::profile;
	uint64_t interval_ns = 0;
};

// Parse a whole probe name. nullopt if it has no profile-/tick- prefix;
// otherwise status says whether the interval is valid.
struct name_result {
	interval_status status = interval_status::not_a_number;
	timer_spec spec;
};
[[nodiscard]] std::optional<name_result> parse_probe_name(std::string_view name);

// The probe cookie: the interval in nanoseconds, with bit 63 set for
// tick-N (intervals never reach bit 63, see k_interval_max_ns).
inline constexpr uint64_t k_cookie_tick_bit = uint64_t{1} << 63;

[[nodiscard]] constexpr uint64_t cookie_of(timer_spec s)
{
	return s.interval_ns | (s.kind == timer_kind::tick ? k_cookie_tick_bit : 0);
}

[[nodiscard]] constexpr timer_spec spec_of(uint64_t cookie)
{
	return {(cookie & k_cookie_tick_bit) ? timer_kind::tick : timer_kind::profile,
		cookie & ~k_cookie_tick_bit};
}

} // namespace dt::plugin::profile
