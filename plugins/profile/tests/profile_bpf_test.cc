// SPDX-License-Identifier: MIT
// dt_profile.so's bpf engine hook: profile-N is a perf event of period N
// on every CPU, tick-N one on a single CPU that is online (checked
// against /sys/devices/system/cpu/online), both with the perf context
// (arg0 kernel PC, arg1 user PC).
#include "plugin_handle.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace {

using dt::test::plugin_handle;

// The CPUs the kernel lists as online ("0-3,8,10-11").
std::set<int> online_cpus()
{
	std::ifstream f("/sys/devices/system/cpu/online");
	std::string list;
	std::getline(f, list);
	std::set<int> cpus;
	std::stringstream ss(list);
	std::string range;
	while (std::getline(ss, range, ',')) {
		auto dash = range.find('-');
		int lo = std::stoi(range.substr(0, dash));
		int hi = dash == std::string::npos ? lo : std::stoi(range.substr(dash + 1));
		for (int c = lo; c <= hi; c++)
			cpus.insert(c);
	}
	return cpus;
}

dt_bpf_attach_t attach_ok(plugin_handle &h, const char *name)
{
	dt_bpf_attach_t a;
	std::memset(&a, 0, sizeof(a));
	auto probes = h.probes("profile", "", "", name);
	EXPECT_EQ(probes.size(), 1u) << name;
	if (probes.size() == 1) {
		EXPECT_EQ(h.bpf_attach(probes[0], a), 0) << name;
	}
	return a;
}

TEST(ProfileBpf, ProfileNIsAPerfEventOnEveryCpu)
{
	plugin_handle h(DT_PROFILE_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	for (auto [name, ns] : {std::pair{"profile-97", uint64_t{1000000000} / 97},
				{"profile-1ms", uint64_t{1000000}},
				{"profile-4999hz", uint64_t{1000000000} / 4999}}) {
		dt_bpf_attach_t a = attach_ok(h, name);
		EXPECT_EQ(a.kind, DT_BPF_ATTACH_PERF_EVENT) << name;
		EXPECT_EQ(a.period_ns, ns) << name;
		EXPECT_EQ(a.cpu, -1) << name;
		EXPECT_EQ(a.ctx, DT_BPF_CTX_PERF) << name;
		EXPECT_EQ(a.has_filter, 0) << name;
	}
}

TEST(ProfileBpf, TickNIsAPerfEventOnOneOnlineCpu)
{
	plugin_handle h(DT_PROFILE_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	std::set<int> online = online_cpus();
	ASSERT_FALSE(online.empty());
	for (auto [name, ns] : {std::pair{"tick-1s", uint64_t{1000000000}},
				{"tick-10ms", uint64_t{10000000}},
				{"tick-100", uint64_t{10000000}}}) {
		dt_bpf_attach_t a = attach_ok(h, name);
		EXPECT_EQ(a.kind, DT_BPF_ATTACH_PERF_EVENT) << name;
		EXPECT_EQ(a.period_ns, ns) << name;
		EXPECT_TRUE(online.count(a.cpu)) << name << ": CPU " << a.cpu << " is not online";
		EXPECT_EQ(a.cpu, *online.begin()) << name;
		EXPECT_EQ(a.ctx, DT_BPF_CTX_PERF) << name;
	}
}

TEST(ProfileBpf, NotAProfileProbe)
{
	plugin_handle h(DT_PROFILE_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	dt_probe_info_t p = {sizeof(p), "profile", "", "", "tick-0", 0};
	dt_bpf_attach_t a;
	EXPECT_EQ(h.bpf_attach(p, a), -ENOENT);
	p.name = "profile-100us"; // below illumos' 200us minimum
	EXPECT_EQ(h.bpf_attach(p, a), -ENOENT);
}

} // namespace
