// SPDX-License-Identifier: MIT
// Parsing profile-N / tick-N intervals (see interval.hpp), following
// illumos profile.c profile_provide(): digits, then an optional unit.
#include "interval.hpp"

#include <strings.h>

#include <charconv>
#include <system_error>

namespace dt::plugin::profile {
namespace {

constexpr uint64_t k_ns_per_sec = 1'000'000'000;

// profile.c's suffixes[]: nanoseconds per unit; 0 means a rate in hertz.
struct unit {
	std::string_view name;
	uint64_t ns;
};

constexpr unit k_units[] = {
	{"ns", 1},
	{"nsec", 1},
	{"us", 1'000},
	{"usec", 1'000},
	{"ms", 1'000'000},
	{"msec", 1'000'000},
	{"s", k_ns_per_sec},
	{"sec", k_ns_per_sec},
	{"m", 60 * k_ns_per_sec},
	{"min", 60 * k_ns_per_sec},
	{"h", 60 * 60 * k_ns_per_sec},
	{"hour", 60 * 60 * k_ns_per_sec},
	{"d", 24 * 60 * 60 * k_ns_per_sec},
	{"day", 24 * 60 * 60 * k_ns_per_sec},
	{"hz", 0},
	{"", 0}, // no unit: hertz
};

const unit *find_unit(std::string_view suffix)
{
	for (const unit &u : k_units)
		if (u.name.size() == suffix.size() &&
		    strncasecmp(u.name.data(), suffix.data(), suffix.size()) == 0)
			return &u;
	return nullptr;
}

constexpr std::string_view k_profile_prefix = "profile-";
constexpr std::string_view k_tick_prefix = "tick-";

} // namespace

interval_result parse_interval(std::string_view text)
{
	size_t ndigits = text.find_first_not_of("0123456789");
	if (ndigits == std::string_view::npos)
		ndigits = text.size();
	if (ndigits == 0)
		return {interval_status::not_a_number, 0};
	const unit *u = find_unit(text.substr(ndigits));
	if (u == nullptr)
		return {interval_status::unknown_unit, 0};

	uint64_t n = 0;
	auto [end, ec] = std::from_chars(text.data(), text.data() + ndigits, n);
	if (ec == std::errc::result_out_of_range)
		return {interval_status::overflow, 0};
	if (ec != std::errc{} || end != text.data() + ndigits)
		return {interval_status::not_a_number, 0};
	if (n == 0)
		return {interval_status::zero, 0};

	uint64_t ns = 0;
	if (u->ns == 0) {
		ns = k_ns_per_sec / n; // a rate: truncated, as profile.c does
	} else {
		if (n > k_interval_max_ns / u->ns)
			return {interval_status::overflow, 0};
		ns = n * u->ns;
	}
	if (ns < k_interval_min_ns)
		return {interval_status::below_minimum, 0};
	return {interval_status::ok, ns};
}

const char *describe(interval_status s)
{
	switch (s) {
	case interval_status::ok: return "ok";
	case interval_status::not_a_number: return "no number of units";
	case interval_status::zero: return "the interval is zero";
	case interval_status::unknown_unit: return "unknown unit";
	case interval_status::overflow: return "the interval is too long";
	case interval_status::below_minimum:
		return "the interval is below the 200us minimum";
	}
	return "invalid";
}

std::optional<name_result> parse_probe_name(std::string_view name)
{
	timer_kind kind;
	std::string_view rest;
	if (name.starts_with(k_profile_prefix)) {
		kind = timer_kind::profile;
		rest = name.substr(k_profile_prefix.size());
	} else if (name.starts_with(k_tick_prefix)) {
		kind = timer_kind::tick;
		rest = name.substr(k_tick_prefix.size());
	} else {
		return std::nullopt;
	}
	interval_result r = parse_interval(rest);
	return name_result{r.status, {kind, r.ns}};
}

} // namespace dt::plugin::profile
