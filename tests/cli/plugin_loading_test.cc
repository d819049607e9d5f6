// SPDX-License-Identifier: MIT
// Which provider plugins a command opens (core/plugin/registry.cc): with
// DTRACE_DEBUG set, dtrace(1) says "loaded provider plugin PATH" for each.
// BEGIN opens none, a syscall description opens dt_syscall.so alone,
// tick-N dt_profile.so alone, `dtrace -l` every one; and every probe
// `dtrace -l` lists has a name its plugin's DT_PLUGIN_NOTE allows (the
// note must never hide a probe).
#include "run_dtrace.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace dt::test {
namespace {

const std::map<std::string, std::string> k_debug = {{"DTRACE_DEBUG", "1"}};

// The plugin files (dt_X.so -> X) a command loaded.
std::set<std::string> loaded(const result &r)
{
	std::set<std::string> v;
	const std::string mark = "loaded provider plugin ";
	for (const std::string &l : lines(r.err)) {
		size_t at = l.find(mark);
		if (at == std::string::npos)
			continue;
		std::string file = l.substr(l.rfind('/') + 1);
		v.insert(file.substr(3, file.size() - 6)); // dt_X.so
	}
	return v;
}

#define NEED_ROOT()                                                                    \
	do {                                                                           \
		if (!is_root())                                                        \
			GTEST_SKIP() << "listing syscall probes needs root (tracefs)"; \
	} while (0)

TEST(plugin_loading, begin_opens_no_plugin)
{
	result r = dtrace({"-l", "-n", "BEGIN"}, k_debug);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(loaded(r), std::set<std::string>{});
	r = dtrace({"-l", "-n", ":::END"}, k_debug);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(loaded(r), std::set<std::string>{});
}

TEST(plugin_loading, a_description_opens_only_the_plugins_it_can_name)
{
	NEED_ROOT();
	result r = dtrace({"-l", "-n", "syscall::getppid:entry"}, k_debug);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(loaded(r), std::set<std::string>{"syscall"});
	r = dtrace({"-l", "-n", "tick-1s"}, k_debug);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(loaded(r), std::set<std::string>{"profile"});
	// Any provider, name "entry": the plugins whose probes have that name.
	r = dtrace({"-l", "-n", "::getppid:entry"}, k_debug);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(loaded(r).count("syscall"), 1u);
	EXPECT_EQ(loaded(r).count("profile"), 0u);
	EXPECT_EQ(loaded(r).count("tcp"), 0u);
}

TEST(plugin_loading, a_missing_provider_is_the_same_error)
{
	result r = dtrace({"-n", "nosuchprovider:::BEGIN { exit(0); }"}, k_debug);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("dtrace: invalid probe specifier nosuchprovider:::BEGIN { exit(0); }: "
			     "probe description nosuchprovider:::BEGIN does not match any probes"),
		  std::string::npos)
		<< r.err;
	// A provider name no plugin has may be a USDT provider of some
	// process (docs/usdt.md): only the usdt plugin is asked.
	EXPECT_EQ(loaded(r), std::set<std::string>{"usdt"});
}

TEST(plugin_loading, list_opens_every_plugin_and_each_probe_fits_its_note)
{
	NEED_ROOT();
	result all = dtrace({"-l"}, k_debug);
	ASSERT_EQ(all.status, 0) << all.err;
	std::set<std::string> plugins = loaded(all);
	EXPECT_GE(plugins.count("syscall") + plugins.count("profile"), 2u);
	// Each listed probe's description matches itself with any provider:
	// what a description without the provider would have opened.
	size_t n = 0;
	std::map<std::string, std::set<std::string>> names; // provider -> names
	for (const std::string &l : lines(all.out)) {
		std::istringstream f(l);
		std::string id, prov;
		f >> id >> prov;
		if (id == "ID" || prov == "dtrace" || l.empty())
			continue;
		std::string name = l.substr(l.find_last_of(' ') + 1);
		names[prov].insert(name);
	}
	for (const auto &[prov, ns] : names) {
		for (const std::string &name : ns) {
			if (n++ % 50 != 0 && prov != "proc" && prov != "tcp")
				continue; // a sample of the large ones
			result r = dtrace({"-l", "-n", ":::" + name}, k_debug);
			EXPECT_EQ(r.status, 0) << name << ": " << r.err;
			EXPECT_EQ(loaded(r).count(prov), 1u)
				<< prov << ":::" << name << " does not open its plugin";
			EXPECT_NE(r.out.find(prov), std::string::npos) << name;
		}
	}
}

} // namespace
} // namespace dt::test
