// SPDX-License-Identifier: MIT
// The pid plugin loaded directly against a live target: the cookies an
// engine will place uprobes with point at the probed instructions in the
// object file, and the walk stops when the consumer says so.
#include "plugin_handle.hpp"
#include "target_process.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>

namespace {

using namespace dt::test::pid;
using dt::test::plugin_handle;

TEST(PidPlugin, CookiesAreFileOffsetsOfTheProbedInstructions)
{
	target_process t;
	ASSERT_TRUE(t.ready()) << t.output();
	plugin_handle h(DT_PID_PLUGIN, {t.pid()});
	ASSERT_NE(h.ops(), nullptr);
	std::ifstream f(target_path(), std::ios::binary);
	std::vector<uint8_t> file((std::istreambuf_iterator<char>(f)),
				  std::istreambuf_iterator<char>());
	ASSERT_FALSE(file.empty());

	for (const char *fn : {"dt_pid_target_add", "dt_pid_target_sum", "dt_pid_target_classify"}) {
		auto od = objdump(target_path(), fn);
		ASSERT_FALSE(od.insns.empty()) << fn;
		std::map<std::string, uint64_t> cookie;
		for (const auto &p : h.probes("", "a.out", fn, ""))
			cookie[p.name] = p.cookie;
		ASSERT_EQ(cookie.size(), od.insns.size() + 2) << fn;
		EXPECT_EQ(cookie["entry"], cookie["return"]);
		EXPECT_EQ(cookie["entry"], cookie["0"]);
		for (const auto &[off, bytes] : od.insns) {
			char name[24];
			std::snprintf(name, sizeof(name), "%llx", static_cast<unsigned long long>(off));
			ASSERT_TRUE(cookie.count(name)) << fn << ":" << name;
			uint64_t at = cookie[name];
			EXPECT_EQ(at, cookie["entry"] + off);
			ASSERT_LE(at + bytes.size(), file.size());
			EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), file.begin() + static_cast<long>(at)))
				<< fn << "+" << name << ": the file at the cookie is not objdump's instruction";
		}
	}
}

TEST(PidPlugin, StopsWhenTheCallbackSaysSo)
{
	target_process t;
	ASSERT_TRUE(t.ready()) << t.output();
	plugin_handle h(DT_PID_PLUGIN, {t.pid()});
	ASSERT_NE(h.ops(), nullptr);
	int rc = -1;
	auto all = h.probes("", "", "", "", &rc);
	EXPECT_EQ(rc, 0);
	ASSERT_GT(all.size(), 100u);
	auto three = h.probes("", "", "", "", &rc, 3);
	EXPECT_EQ(rc, 0);
	EXPECT_EQ(three.size(), 3u);
}

TEST(PidPlugin, ReportsAGrabbedProcessThatExitedAsMissing)
{
	pid_t gone;
	{
		target_process t;
		ASSERT_TRUE(t.ready()) << t.output();
		gone = t.pid();
	}
	plugin_handle h(DT_PID_PLUGIN, {gone});
	ASSERT_NE(h.ops(), nullptr);
	EXPECT_TRUE(h.probes("", "", "", "").empty());
	ASSERT_EQ(h.messages().size(), 1u);
	EXPECT_EQ(h.messages()[0],
		  "failed to grab pid " + std::to_string(gone) + ": No such process");
}

} // namespace
