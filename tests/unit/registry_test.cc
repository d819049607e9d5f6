// SPDX-License-Identifier: MIT
// The plugin loader and registry (core/plugin/): discovery, on-demand
// loading, every way a plugin can be broken, and probe IDs.
#include "plugin/plugin_internal.hpp"

#include <dtrace/provider.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

struct registry_fixture : ::testing::Test {
	std::vector<std::string> warnings;
	std::unique_ptr<dt::provider_registry> reg;

	void make(std::vector<std::string> path, std::vector<int32_t> procs = {})
	{
		reg = std::make_unique<dt::provider_registry>(
			std::move(path), std::move(procs),
			[this](const std::string &w) { warnings.push_back(w); });
	}
	[[nodiscard]] bool warned(const std::string &needle) const
	{
		return std::any_of(warnings.begin(), warnings.end(), [&](const auto &w) {
			return w.find(needle) != std::string::npos;
		});
	}
	[[nodiscard]] std::vector<std::string> names(const dt::probe_desc &d)
	{
		std::vector<std::string> v;
		for (const auto *p : reg->match(d))
			v.push_back(std::to_string(p->id) + " " + p->desc.str());
		return v;
	}
};

const std::string fixtures = DTRACE_FIXTURE_DIR;

// A directory holding copies of only the named fixtures.
std::string dir_with(const std::vector<std::string> &which)
{
	static int n = 0;
	fs::path d = fs::temp_directory_path() /
		     ("dt-registry-" + std::to_string(getpid()) + "-" + std::to_string(n++));
	fs::remove_all(d);
	fs::create_directories(d);
	for (const auto &w : which)
		fs::copy_file(fixtures + "/dt_" + w + ".so", d / ("dt_" + w + ".so"));
	return d.string();
}

} // namespace

TEST_F(registry_fixture, BuiltinDtraceProviderIsAlwaysIdsOneToThree)
{
	make({});
	EXPECT_EQ(names({"dtrace", "", "", ""}),
		  (std::vector<std::string>{"1 dtrace:::BEGIN", "2 dtrace:::END",
					    "3 dtrace:::ERROR"}));
	EXPECT_TRUE(warnings.empty());
}

TEST_F(registry_fixture, GoodPluginIsListedWithArgs)
{
	make({dir_with({"good"})});
	auto probes = reg->match({"good", "", "", ""});
	ASSERT_EQ(probes.size(), 3u);
	EXPECT_EQ(probes[0]->id, 4u);
	EXPECT_EQ(probes[1]->desc.str(), "good:mod:beta:entry");
	auto args = reg->args(*probes[1]);
	ASSERT_EQ(args.size(), 2u);
	EXPECT_EQ(args[0].native, "char *");
	EXPECT_EQ(args[0].d_type(), "string");
	EXPECT_EQ(args[0].name, "who");
	EXPECT_EQ(args[1].d_type(), "int");
	EXPECT_TRUE(reg->args(*probes[0]).empty());
	EXPECT_TRUE(warnings.empty());
}

// The dtrace provider fires from the consumer, on every engine.
TEST_F(registry_fixture, DtraceProbesAreConsumerProbesOnEveryEngine)
{
	make({});
	auto probes = reg->match({"dtrace", "", "", ""});
	ASSERT_EQ(probes.size(), 3u);
	const dt::consumer_probe want[] = {dt::consumer_probe::begin, dt::consumer_probe::end,
					   dt::consumer_probe::error};
	for (size_t i = 0; i < 3; i++) {
		dt::probe_fire f = reg->fire(*probes[i]);
		EXPECT_EQ(f.kind, dt::fire_kind::consumer) << probes[i]->desc.str();
		EXPECT_EQ(f.consumer, want[i]) << probes[i]->desc.str();
		EXPECT_EQ(f.engines, uint32_t{DT_ENGINE_USER | DT_ENGINE_BPF | DT_ENGINE_KMOD});
		EXPECT_EQ(f.flow, dt::probe_flow::none);
		EXPECT_EQ(f.errno_src, dt::errno_source::none);
	}
}

// A plugin without fires() (the fixture, as a plugin built before ABI 1.4):
// no kind, no engine (it has neither a kmod nor a bpf table), no errno, and
// illumos' flow rule on the name (its probes are all "entry").
TEST_F(registry_fixture, PluginWithoutFiresGetsDerivedDefaults)
{
	make({dir_with({"good"})});
	auto probes = reg->match({"good", "", "", ""});
	ASSERT_EQ(probes.size(), 3u);
	dt::probe_fire f = reg->fire(*probes[0]);
	EXPECT_EQ(f.kind, dt::fire_kind::none);
	EXPECT_EQ(f.engines, 0u);
	EXPECT_EQ(f.flow, dt::probe_flow::entry);
	EXPECT_FALSE(f.syscall);
	EXPECT_EQ(f.errno_src, dt::errno_source::none);
	EXPECT_TRUE(f.target.empty());
	EXPECT_TRUE(warnings.empty());
}

TEST_F(registry_fixture, GlobsAreAppliedByTheHost)
{
	make({dir_with({"good"})});
	EXPECT_EQ(names({"go*", "", "[ab]*", ""}),
		  (std::vector<std::string>{"4 good:mod:alpha:entry", "5 good:mod:beta:entry"}));
	EXPECT_TRUE(names({"good", "", "", "return"}).empty());
}

TEST_F(registry_fixture, IdsAreStableWithinARegistry)
{
	make({dir_with({"good"})});
	auto first = names({"good", "", "gamma", ""});
	auto all = names({"good", "", "", ""});
	auto again = names({"good", "", "gamma", ""});
	EXPECT_EQ(first, again);
	EXPECT_EQ(all.size(), 3u);
}

TEST_F(registry_fixture, PluginsLoadOnlyWhenADescriptionCouldMatch)
{
	make({dir_with({"good", "initfail"})});
	(void)reg->match({"dtrace", "", "", ""});
	// initfail was never opened, so it could not complain.
	EXPECT_TRUE(warnings.empty());
	EXPECT_EQ(reg->providers().size(), 1u);
	(void)reg->match({"good", "", "", ""});
	EXPECT_EQ(reg->providers().size(), 2u);
	EXPECT_TRUE(warnings.empty());
}

TEST_F(registry_fixture, AbiMismatchIsSkippedWithAWarningNamingTheFile)
{
	std::string d = dir_with({"badabi", "good"});
	make({d});
	reg->load_all();
	EXPECT_TRUE(warned("failed to load provider plugin " + d + "/dt_badabi.so: "
			   "built for plugin ABI version 2, this dtrace supports version 1"))
		<< (warnings.empty() ? "" : warnings[0]);
	EXPECT_EQ(reg->match({"good", "", "", ""}).size(), 3u);
}

TEST_F(registry_fixture, CorruptSharedObjectIsSkipped)
{
	std::string d = dir_with({"good"});
	std::ofstream(d + "/dt_corrupt.so") << "this is not an ELF file\n";
	make({d});
	reg->load_all();
	EXPECT_TRUE(warned("failed to load provider plugin " + d + "/dt_corrupt.so: "));
	EXPECT_TRUE(warned("dt_corrupt.so: invalid ELF header") ||
		    warned("file too short"))
		<< warnings[0];
	EXPECT_EQ(reg->match({"good", "", "", ""}).size(), 3u);
}

TEST_F(registry_fixture, EntryThatThrowsIsSkipped)
{
	std::string d = dir_with({"throws"});
	make({d});
	reg->load_all();
	EXPECT_TRUE(warned(d + "/dt_throws.so: entry point threw an exception: "
			       "fixture entry failure"));
	EXPECT_EQ(reg->providers().size(), 1u);
}

TEST_F(registry_fixture, MissingEntryPointIsSkipped)
{
	std::string d = dir_with({"noentry"});
	make({d});
	reg->load_all();
	EXPECT_TRUE(warned(d + "/dt_noentry.so: no entry point dtrace_plugin_entry"));
}

TEST_F(registry_fixture, NullOpsTableIsSkipped)
{
	std::string d = dir_with({"null"});
	make({d});
	reg->load_all();
	EXPECT_TRUE(warned(d + "/dt_null.so: entry point returned no operations table"));
}

TEST_F(registry_fixture, TooSmallOpsTableIsSkipped)
{
	std::string d = dir_with({"small"});
	make({d});
	reg->load_all();
	EXPECT_TRUE(warned(d + "/dt_small.so: operations table too small (8 bytes)"));
}

TEST_F(registry_fixture, InitFailureIsReportedWithThePluginsOwnMessage)
{
	std::string d = dir_with({"initfail"});
	make({d});
	reg->load_all();
	EXPECT_TRUE(warned("fixture: no such device here"));
	EXPECT_TRUE(warned(d + "/dt_initfail.so: init() failed: No such device"));
}

TEST_F(registry_fixture, NameMustMatchTheFile)
{
	std::string d = dir_with({"misnamed"});
	make({d});
	reg->load_all();
	EXPECT_TRUE(warned("dt_misnamed.so: provides 'other' but its file is named for 'misnamed'"));
}

TEST_F(registry_fixture, ProbesThatThrowAreContained)
{
	std::string d = dir_with({"probethrow", "good"});
	make({d});
	EXPECT_TRUE(names({"probethrow", "", "", ""}).empty());
	EXPECT_TRUE(warned(d + "/dt_probethrow.so threw in probes(): fixture probes() failure"));
	EXPECT_EQ(reg->match({"good", "", "", ""}).size(), 3u);
}

TEST_F(registry_fixture, OlderPluginWithoutEngineHooksLoads)
{
	make({dir_with({"old"})});
	auto probes = reg->match({"old", "", "", ""});
	ASSERT_EQ(probes.size(), 3u);
	// Fields beyond the plugin's sz read as NULL, whatever it left there.
	EXPECT_EQ(probes[0]->prov->ops().kmod, nullptr);
	EXPECT_EQ(probes[0]->prov->ops().bpf, nullptr);
	EXPECT_TRUE(warnings.empty());
}

TEST_F(registry_fixture, FirstPluginOnThePathWins)
{
	std::string a = dir_with({"good"}), b = dir_with({"good"});
	make({a, b});
	(void)reg->match({"good", "", "", ""});
	ASSERT_EQ(reg->providers().size(), 2u);
	EXPECT_EQ(reg->providers()[1]->origin(), a + "/dt_good.so");
}

TEST_F(registry_fixture, PerProcessProvidersAreFoundByPid)
{
	make({dir_with({"family"})}, {1234, 42});
	EXPECT_EQ(names({"family1234", "", "", ""}),
		  (std::vector<std::string>{"4 family1234:mod:fn:entry"}));
	EXPECT_EQ(names({"family*", "", "", ""}).size(), 2u);
	EXPECT_TRUE(names({"family", "", "", ""}).empty());
	ASSERT_NE(reg->find_provider("family42"), nullptr);
	EXPECT_STREQ(reg->find_provider("family42")->name(), "family");
	EXPECT_EQ(reg->find_provider("familyX"), nullptr);
}

// A plugin's DT_PLUGIN_NOTE is read from the file: a description whose
// probe name none of the note's globs can match does not open the plugin;
// a plugin without a note is opened for any description that could name
// its provider, as before.
TEST_F(registry_fixture, ANotedPluginIsOpenedOnlyForNamesItCanHave)
{
	make({dir_with({"noted", "good"})});
	auto loaded = [this] {
		std::vector<std::string> v;
		for (const dt::provider *p : reg->providers())
			v.emplace_back(p->name());
		return v;
	};
	EXPECT_EQ(names({"", "", "", "BEGIN"}), (std::vector<std::string>{"1 dtrace:::BEGIN"}));
	EXPECT_EQ(loaded(), (std::vector<std::string>{"dtrace", "good"}));
	EXPECT_TRUE(names({"noted", "", "", "return"}).empty());
	EXPECT_TRUE(names({"noted", "", "", "BEGIN"}).empty());
	EXPECT_EQ(loaded(), (std::vector<std::string>{"dtrace", "good"}));
	// A glob that could be "entry", and "" (any name), open it.
	EXPECT_EQ(names({"noted", "", "alpha", "ent*"}).size(), 1u);
	EXPECT_EQ(loaded(), (std::vector<std::string>{"dtrace", "good", "noted"}));
	EXPECT_TRUE(warnings.empty());
}

TEST_F(registry_fixture, ANotedPluginIsOpenedForAnyNameOrALiteralMatch)
{
	make({dir_with({"noted"})});
	EXPECT_EQ(names({"", "", "beta", "entry"}),
		  (std::vector<std::string>{"4 noted:mod:beta:entry"}));
	make({dir_with({"noted"})});
	EXPECT_EQ(names({"", "", "", ""}).size(), 6u); // BEGIN END ERROR and its three
	make({dir_with({"noted"})});
	reg->load_all(); // dtrace -l opens every plugin, noted or not
	EXPECT_EQ(reg->providers().size(), 2u);
}

TEST_F(registry_fixture, APerProcessNoteNeedsAProcessOrAPidProvider)
{
	make({dir_with({"family"})});
	EXPECT_TRUE(names({"", "", "", "entry"}).empty());
	EXPECT_TRUE(names({"family*", "", "", ""}).empty());
	EXPECT_EQ(reg->providers().size(), 1u); // no process given: not opened
	(void)names({"family99", "", "", "entry"});
	EXPECT_EQ(reg->providers().size(), 2u); // named by its pid: opened
	make({dir_with({"family"})}, {77});
	EXPECT_EQ(names({"", "", "", "entry"}),
		  (std::vector<std::string>{"4 family77:mod:fn:entry"}));
}

TEST(PluginNote, TheInTreePluginsCarryOne)
{
	for (const char *p : {"syscall", "fbt", "pid", "proc", "tcp", "profile"}) {
		std::string path = std::string(DTRACE_PLUGIN_BUILD_DIR) + "/dt_" + p + ".so";
		if (!fs::exists(path))
			continue; // not built (-DDTRACE_PLUGINS)
		dt::detail::plugin_note n;
		ASSERT_TRUE(dt::detail::read_plugin_note(path, n)) << path;
		EXPECT_FALSE(n.names.empty()) << path;
		EXPECT_EQ(n.flags == DT_PLUGIN_F_PER_PROCESS, std::string(p) == "pid") << path;
	}
	dt::detail::plugin_note n;
	EXPECT_FALSE(dt::detail::read_plugin_note(fixtures + "/dt_good.so", n));
	EXPECT_FALSE(dt::detail::read_plugin_note("/nonexistent/dt_x.so", n));
	EXPECT_FALSE(dt::detail::read_plugin_note("/etc/hostname", n));
	ASSERT_TRUE(dt::detail::read_plugin_note(fixtures + "/dt_noted.so", n));
	EXPECT_EQ(n.flags, 0u);
	EXPECT_EQ(n.names, (std::vector<std::string>{"entry"}));
}

TEST(PluginSearchPath, EnvironmentComesFirst)
{
	setenv("DTRACE_PLUGIN_PATH", "/a:/b::/c", 1);
	auto p = dt::plugin_search_path();
	unsetenv("DTRACE_PLUGIN_PATH");
	ASSERT_GE(p.size(), 4u);
	EXPECT_EQ(p[0], "/a");
	EXPECT_EQ(p[1], "/b");
	EXPECT_EQ(p[2], "/c");
	// Then the directory beside the executable, then the install dir.
	EXPECT_TRUE(p[3].ends_with("lib/dtrace/plugins")) << p[3];
}
