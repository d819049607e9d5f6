// SPDX-License-Identifier: MIT
// profile provider: what `dtrace -l`/`-lv` print for it, byte for byte,
// and what its ops table reports (cookies, on-demand probes, the debug
// reason for a refused name).
//
// Probe IDs: the registry numbers probes in the order it first sees
// them, BEGIN/END/ERROR being 1-3. Only probes that match the description
// are numbered, and no other provider has profile-N/tick-N names, so a
// listing's first profile probe is 4 even when -n loads every plugin.
#include "listing.hpp"
#include "plugin_handle.hpp"
#include "run_dtrace.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using dt::test::dtrace;
using dt::test::lv_attributes;
using dt::test::lv_types;

constexpr const char *k_header =
	"   ID   PROVIDER            MODULE                          FUNCTION NAME\n";

std::string row(unsigned id, const char *name)
{
	char buf[256];
	std::snprintf(buf, sizeof(buf), "%5u %10s %17s %33s %s\n", id, "profile", "", "", name);
	return buf;
}

const std::string k_default_list =
	std::string(k_header) +
	"    4    profile                                                     profile-97\n"
	"    5    profile                                                     profile-199\n"
	"    6    profile                                                     profile-499\n"
	"    7    profile                                                     profile-997\n"
	"    8    profile                                                     profile-1999\n"
	"    9    profile                                                     profile-4001\n"
	"   10    profile                                                     profile-4999\n"
	"   11    profile                                                     tick-1\n"
	"   12    profile                                                     tick-10\n"
	"   13    profile                                                     tick-100\n"
	"   14    profile                                                     tick-500\n"
	"   15    profile                                                     tick-1000\n"
	"   16    profile                                                     tick-5000\n";

TEST(ProfileCli, DefaultSet)
{
	auto r = dtrace({"-l", "-n", "profile:::"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(r.out, k_default_list);
}

TEST(ProfileCli, DefaultSetByProvider)
{
	auto r = dtrace({"-l", "-P", "profile"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, k_default_list);
}

TEST(ProfileCli, RateCreatedOnDemand)
{
	auto r = dtrace({"-l", "-n", "profile-1234hz"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(
		r.out,
		std::string(k_header) +
			"    4    profile                                                     profile-1234hz\n");
}

TEST(ProfileCli, TickCreatedOnDemand)
{
	auto r = dtrace({"-l", "-n", "tick-1ms"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(
		r.out,
		std::string(k_header) +
			"    4    profile                                                     tick-1ms\n");
}

TEST(ProfileCli, SeveralOnDemandInOneRun)
{
	// Each new name gets the next ID; a name seen again keeps its ID.
	auto r = dtrace({"-l", "-n", "profile:::tick-2s", "-n", "profile:::profile-10ms", "-n",
			 "profile:::tick-2s"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_EQ(r.out, std::string(k_header) + row(4, "tick-2s") + row(5, "profile-10ms") +
				 row(4, "tick-2s"));
}

TEST(ProfileCli, BelowMinimumMatchesNothing)
{
	auto r = dtrace({"-l", "-n", "tick-100us"});
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(r.out, k_header);
	EXPECT_EQ(r.err, "dtrace: failed to match :::tick-100us: No probe matches description\n");
}

TEST(ProfileCli, InvalidNamesMatchNothing)
{
	for (const char *n : {"profile-0", "profile-abc", "tick-5001", "tick-1fortnight",
			      "profile-", "tick-106752d"}) {
		std::string spec = std::string("profile:::") + n;
		auto r = dtrace({"-l", "-n", spec});
		EXPECT_EQ(r.status, 0) << n;
		EXPECT_EQ(r.err,
			  "dtrace: failed to match " + spec + ": No probe matches description\n");
	}
}

TEST(ProfileCli, RefusalReasonInDebugLog)
{
	auto r = dtrace({"-l", "-n", "profile:::tick-100us"}, {{"DTRACE_DEBUG", "1"}});
	EXPECT_EQ(r.status, 0);
	EXPECT_NE(r.err.find("dtrace: profile: no probe tick-100us: the "
			     "interval is below the 200us minimum\n"),
		  std::string::npos)
		<< r.err;
}

TEST(ProfileCli, TickGlobFiltersDefaultSet)
{
	auto r = dtrace({"-l", "-n", "tick-*"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(
		r.out,
		std::string(k_header) +
			"    4    profile                                                     tick-1\n"
			"    5    profile                                                     tick-10\n"
			"    6    profile                                                     tick-100\n"
			"    7    profile                                                     tick-500\n"
			"    8    profile                                                     tick-1000\n"
			"    9    profile                                                     tick-5000\n");
}

TEST(ProfileCli, GlobCreatesNothing)
{
	// A glob only filters the default set (illumos creates no probe for
	// a pattern), so profile-1234* matches nothing.
	auto r = dtrace({"-l", "-n", "profile:::profile-1234*"});
	EXPECT_EQ(r.err, "dtrace: failed to match profile:::profile-1234*: No probe matches "
			 "description\n");
	EXPECT_EQ(r.out, k_header);
}

TEST(ProfileCli, Profile97Verbose)
{
	auto r = dtrace({"-lv", "-n", "profile-97"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(
		r.out,
		std::string(k_header) +
			"    4    profile                                                     profile-97\n" +
			lv_attributes("Private", "Private", "Unknown", "Unstable", "Unstable",
				      "Common") +
			lv_types({}));
}

// tick-N runs in the consumer's own process too (the user engine): -x
// engines says so, and that the user engine is the one used.
TEST(ProfileCli, TickEnginesTableSaysTheUserEngineRunsIt)
{
	auto r = dtrace({"-l", "-x", "engines", "-n", "profile:::tick-1sec"});
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "");
	EXPECT_NE(r.out.find("\n  PROVIDER  USER   BPF  KMOD ENGINE\n   profile   yes "),
		  std::string::npos)
		<< r.out;
	EXPECT_NE(r.out.find(" user\n"), std::string::npos) << r.out;
}

// ---- the ops table, loaded directly -------------------------------------

class ProfilePlugin : public ::testing::Test {
protected:
	void SetUp() override
	{
		ops_ = h_.ops();
		ASSERT_NE(ops_, nullptr) << h_.error();
		ASSERT_NE(ops_->init, nullptr);
	}

	std::vector<dt::test::reported_probe> probes(const char *name)
	{
		int rc = -1;
		auto out = h_.probes("profile", "", "", name, &rc);
		EXPECT_EQ(rc, 0);
		return out;
	}

	dt::test::plugin_handle h_{DT_PROFILE_PLUGIN};
	const dt_plugin_ops_t *ops_ = nullptr;
};

constexpr uint64_t k_tick = uint64_t{1} << 63;

TEST_F(ProfilePlugin, DescribesItself)
{
	EXPECT_STREQ(ops_->name, "profile");
	EXPECT_EQ(ops_->priv, DT_PRIV_USER);
	ASSERT_NE(ops_->kmod, nullptr); // the kernel half: plugins/*/kernel
	EXPECT_EQ(ops_->kmod->sz, sizeof(dt_plugin_kmod_ops_t));
	EXPECT_STREQ(ops_->kmod->module, "dtrace_profile");
	ASSERT_NE(ops_->bpf, nullptr); // attach descriptions: *_bpf_test.cc
	EXPECT_NE(ops_->bpf->attach, nullptr);
	EXPECT_EQ(ops_->attr.provider.name, DT_STABILITY_EVOLVING);
	EXPECT_EQ(ops_->attr.provider.klass, DT_CLASS_COMMON);
	EXPECT_EQ(ops_->attr.mod.name, DT_STABILITY_UNSTABLE);
	EXPECT_EQ(ops_->attr.func.name, DT_STABILITY_PRIVATE);
	EXPECT_EQ(ops_->attr.name.data, DT_STABILITY_EVOLVING);
	EXPECT_EQ(ops_->attr.args.name, DT_STABILITY_UNSTABLE);
}

TEST_F(ProfilePlugin, DefaultSetCookies)
{
	auto all = probes("");
	ASSERT_EQ(all.size(), 13u);
	EXPECT_EQ(all[0].name, "profile-97");
	EXPECT_EQ(all[0].cookie, 1'000'000'000u / 97);
	EXPECT_EQ(all[6].name, "profile-4999");
	EXPECT_EQ(all[6].cookie, 200'040u);
	EXPECT_EQ(all[7].name, "tick-1");
	EXPECT_EQ(all[7].cookie, k_tick | 1'000'000'000u);
	EXPECT_EQ(all[12].name, "tick-5000");
	EXPECT_EQ(all[12].cookie, k_tick | 200'000u);
	for (const auto &p : all) {
		EXPECT_EQ(p.provider, "profile");
		EXPECT_EQ(p.mod, "");
		EXPECT_EQ(p.func, "");
	}
	// A glob gets the same set; the host filters it.
	EXPECT_EQ(probes("tick-*").size(), 13u);
}

TEST_F(ProfilePlugin, OnDemandCookies)
{
	auto t = probes("tick-1ms");
	ASSERT_EQ(t.size(), 1u);
	EXPECT_EQ(t[0].name, "tick-1ms");
	EXPECT_EQ(t[0].cookie, k_tick | 1'000'000u);

	auto p = probes("profile-1234hz");
	ASSERT_EQ(p.size(), 1u);
	EXPECT_EQ(p[0].cookie, 810'372u);

	auto d = probes("profile-2day");
	ASSERT_EQ(d.size(), 1u);
	EXPECT_EQ(d[0].cookie, 2 * 86'400'000'000'000u);
	EXPECT_TRUE(h_.messages().empty());
}

TEST_F(ProfilePlugin, RefusedNamesAreLoggedAtDebug)
{
	EXPECT_TRUE(probes("tick-100us").empty());
	EXPECT_TRUE(probes("syscall").empty()); // not ours: silent
	ASSERT_EQ(h_.messages().size(), 1u);
	EXPECT_EQ(h_.levels()[0], DT_LOG_DEBUG);
	EXPECT_EQ(h_.messages()[0], "profile: no probe tick-100us: the interval is below "
				    "the 200us minimum");
}

// fires(): a timer of the probe's interval; profile-N on every CPU (the
// kernel engines), tick-N on one, which the user engine also runs. The
// host reads this, not the cookie.
TEST_F(ProfilePlugin, FiresAsATimer)
{
	auto t = probes("tick-1ms");
	ASSERT_EQ(t.size(), 1u);
	dt_probe_fire_t f;
	ASSERT_EQ(h_.fires(t[0], f), 0);
	EXPECT_EQ(f.kind, DT_FIRE_TIMER);
	EXPECT_EQ(f.period_ns, 1'000'000u);
	EXPECT_EQ(f.per_cpu, 0);
	EXPECT_EQ(f.engines, uint32_t{DT_ENGINE_USER | DT_ENGINE_BPF | DT_ENGINE_KMOD});
	EXPECT_EQ(f.flow, DT_FLOW_NONE);

	auto p = probes("profile-1234hz");
	ASSERT_EQ(p.size(), 1u);
	ASSERT_EQ(h_.fires(p[0], f), 0);
	EXPECT_EQ(f.kind, DT_FIRE_TIMER);
	EXPECT_EQ(f.period_ns, 810'372u);
	EXPECT_EQ(f.per_cpu, 1);
	EXPECT_EQ(f.engines, uint32_t{DT_ENGINE_BPF | DT_ENGINE_KMOD});

	// A host built before ABI 1.4's fires() gets nothing written.
	dt_probe_fire_t small;
	ASSERT_EQ(h_.fires(dt_probe_info_t{sizeof(dt_probe_info_t), "profile", "", "", "tick-1ms",
					   t[0].cookie},
			   small, offsetof(dt_probe_fire_t, kind)),
		  0);
	EXPECT_EQ(small.kind, DT_FIRE_NONE);
	EXPECT_EQ(small.sz, offsetof(dt_probe_fire_t, kind));
}

TEST_F(ProfilePlugin, NoTypedArguments)
{
	dt_probe_info_t p = {sizeof(p), "profile", "", "", "profile-97", 1'000'000'000u / 97};
	int rc = -1;
	auto args = h_.args(p, &rc);
	EXPECT_EQ(rc, 0);
	EXPECT_EQ(args.size(), 0u);
}

} // namespace
