// SPDX-License-Identifier: MIT
// The profile-N/tick-N interval parser (interval.cc), case by case: every
// unit of illumos profile.c, hertz, the 200us minimum, overflow, garbage.
#include "interval.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace dt::plugin::profile {
namespace {

struct interval_case {
	const char *text;
	interval_status status;
	uint64_t ns; // when ok
};

std::ostream &operator<<(std::ostream &os, const interval_case &c)
{
	return os << '"' << c.text << '"';
}

using st = interval_status;
constexpr uint64_t k_sec = 1'000'000'000;

const interval_case k_cases[] = {
	// Every unit.
	{"200000ns", st::ok, 200'000},
	{"250000nsec", st::ok, 250'000},
	{"200us", st::ok, 200'000},
	{"300usec", st::ok, 300'000},
	{"1ms", st::ok, 1'000'000},
	{"5msec", st::ok, 5'000'000},
	{"1s", st::ok, k_sec},
	{"2sec", st::ok, 2 * k_sec},
	{"1m", st::ok, 60 * k_sec},
	{"3min", st::ok, 180 * k_sec},
	{"1h", st::ok, 3600 * k_sec},
	{"2hour", st::ok, 7200 * k_sec},
	{"1d", st::ok, 86400 * k_sec},
	{"2day", st::ok, 172800 * k_sec},
	// Units are case-insensitive (profile.c uses strcasecmp).
	{"1MS", st::ok, 1'000'000},
	{"2Sec", st::ok, 2 * k_sec},
	{"10HZ", st::ok, 100'000'000},
	// Hertz: explicit or by default; the interval is truncated.
	{"97hz", st::ok, 10'309'278},
	{"97", st::ok, 10'309'278},
	{"1234hz", st::ok, 810'372},
	{"1", st::ok, k_sec},
	{"01", st::ok, k_sec},
	// The 200us minimum (profile_interval_min), inclusive.
	{"5000", st::ok, 200'000},
	{"5000hz", st::ok, 200'000},
	{"4999", st::ok, 200'040},
	{"5001", st::below_minimum, 0},
	{"199999ns", st::below_minimum, 0},
	{"199us", st::below_minimum, 0},
	{"100us", st::below_minimum, 0},
	{"1ns", st::below_minimum, 0},
	{"18446744073709551615hz", st::below_minimum, 0},
	// Overflow of hrtime_t (INT64_MAX nanoseconds) or of N itself.
	{"9223372036854775807ns", st::ok, 9'223'372'036'854'775'807},
	{"9223372036854775808ns", st::overflow, 0},
	{"106751d", st::ok, k_sec * 86400 * 106751},
	{"106752d", st::overflow, 0},
	{"2562047h", st::ok, k_sec * 3600 * 2562047},
	{"2562048h", st::overflow, 0},
	{"18446744073709551616ns", st::overflow, 0},
	{"99999999999999999999", st::overflow, 0},
	// Zero.
	{"0", st::zero, 0},
	{"0ms", st::zero, 0},
	{"000hz", st::zero, 0},
	// Garbage.
	{"", st::not_a_number, 0},
	{"ms", st::not_a_number, 0},
	{"abc", st::not_a_number, 0},
	{"-1", st::not_a_number, 0},
	{"+5", st::not_a_number, 0},
	{" 5", st::not_a_number, 0},
	{"5 ", st::unknown_unit, 0},
	{"5xs", st::unknown_unit, 0},
	{"5mss", st::unknown_unit, 0},
	{"5ms5", st::unknown_unit, 0},
	{"1.5s", st::unknown_unit, 0},
	{"5*", st::unknown_unit, 0},
};

class IntervalTable : public ::testing::TestWithParam<interval_case> {};

TEST_P(IntervalTable, Parses)
{
	const interval_case &c = GetParam();
	interval_result r = parse_interval(c.text);
	EXPECT_EQ(r.status, c.status) << describe(r.status);
	if (c.status == st::ok) {
		EXPECT_EQ(r.ns, c.ns);
	}
}

INSTANTIATE_TEST_SUITE_P(Cases, IntervalTable, ::testing::ValuesIn(k_cases));

TEST(IntervalNames, ProfileAndTickPrefixes)
{
	auto p = parse_probe_name("profile-97");
	ASSERT_TRUE(p.has_value());
	EXPECT_EQ(p->status, st::ok);
	EXPECT_EQ(p->spec.kind, timer_kind::profile);
	EXPECT_EQ(p->spec.interval_ns, 10'309'278u);

	auto t = parse_probe_name("tick-1ms");
	ASSERT_TRUE(t.has_value());
	EXPECT_EQ(t->status, st::ok);
	EXPECT_EQ(t->spec.kind, timer_kind::tick);
	EXPECT_EQ(t->spec.interval_ns, 1'000'000u);
}

TEST(IntervalNames, OursButInvalid)
{
	auto t = parse_probe_name("tick-100us");
	ASSERT_TRUE(t.has_value());
	EXPECT_EQ(t->status, st::below_minimum);
	auto e = parse_probe_name("profile-");
	ASSERT_TRUE(e.has_value());
	EXPECT_EQ(e->status, st::not_a_number);
	auto g = parse_probe_name("tick-*");
	ASSERT_TRUE(g.has_value());
	EXPECT_EQ(g->status, st::not_a_number);
}

TEST(IntervalNames, NotOurs)
{
	// The prefixes are case-sensitive, as profile.c's strncmp.
	for (const char *n : {"tick", "profile97", "Profile-97", "TICK-1", "", "ticks-1", "-1"})
		EXPECT_FALSE(parse_probe_name(n).has_value()) << n;
}

TEST(IntervalCookie, TickSetsBit63)
{
	timer_spec tick{timer_kind::tick, 1'000'000};
	timer_spec prof{timer_kind::profile, 1'000'000};
	EXPECT_EQ(cookie_of(tick), 1'000'000u | (uint64_t{1} << 63));
	EXPECT_EQ(cookie_of(prof), 1'000'000u);
	EXPECT_EQ(spec_of(cookie_of(tick)).kind, timer_kind::tick);
	EXPECT_EQ(spec_of(cookie_of(tick)).interval_ns, 1'000'000u);
	EXPECT_EQ(spec_of(cookie_of(prof)).kind, timer_kind::profile);
	// The longest interval still leaves the flag bit free.
	timer_spec longest{timer_kind::profile, k_interval_max_ns};
	EXPECT_EQ(spec_of(cookie_of(longest)).kind, timer_kind::profile);
	EXPECT_EQ(spec_of(cookie_of(longest)).interval_ns, k_interval_max_ns);
}

} // namespace
} // namespace dt::plugin::profile
