// SPDX-License-Identifier: MIT
// The pid plugin's ops table as the consumer loads it, and the queries it
// answers without reading any process.
#include "plugin_handle.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace {

using dt::test::plugin_handle;

bool same(dt_attribute_t a, uint8_t n, uint8_t d, uint8_t k)
{
	return a.name == n && a.data == d && a.klass == k;
}

TEST(PidOps, TableIsIllumosPidProvider)
{
	plugin_handle h(DT_PID_PLUGIN);
	const dt_plugin_ops_t *ops = h.ops();
	ASSERT_NE(ops, nullptr);
	EXPECT_EQ(ops->sz, sizeof(dt_plugin_ops_t));
	EXPECT_EQ(ops->abi_major, static_cast<uint32_t>(DT_PLUGIN_ABI_MAJOR));
	EXPECT_STREQ(ops->name, "pid");
	EXPECT_EQ(ops->flags, static_cast<uint32_t>(DT_PLUGIN_F_PER_PROCESS));
	EXPECT_EQ(ops->priv, static_cast<uint32_t>(DT_PRIV_PROC | DT_PRIV_OWNER));
	EXPECT_TRUE(same(ops->attr.provider, DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING,
			 DT_CLASS_ISA));
	EXPECT_TRUE(
		same(ops->attr.mod, DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN));
	EXPECT_TRUE(
		same(ops->attr.func, DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN));
	EXPECT_TRUE(
		same(ops->attr.name, DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA));
	EXPECT_TRUE(
		same(ops->attr.args, DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN));
	EXPECT_EQ(ops->probe_args, nullptr); // untyped: -lv prints None
	// The kmod engine places attach()'s uprobes in dtrace_pid.ko.
	ASSERT_NE(ops->kmod, nullptr);
	EXPECT_STREQ(ops->kmod->module, "dtrace_pid");
	ASSERT_NE(ops->bpf, nullptr);
	EXPECT_NE(ops->bpf->attach, nullptr);
}

// fires(): a uprobe in the function; entry and return are a function
// boundary (-F), an offset probe none; the bpf and kmod engines run them.
TEST(PidOps, FiresAsUprobes)
{
	plugin_handle h(DT_PID_PLUGIN);
	ASSERT_NE(h.ops(), nullptr);
	dt_probe_fire_t f;
	const std::pair<const char *, int32_t> cases[] = {
		{"entry", DT_FLOW_ENTRY}, {"return", DT_FLOW_RETURN}, {"1c", DT_FLOW_NONE}};
	for (auto [name, flow] : cases) {
		dt_probe_info_t p = {sizeof(p), "pid123", "libc.so.6", "malloc", name, 0x1000};
		ASSERT_EQ(h.fires(p, f), 0) << name;
		EXPECT_EQ(f.kind, DT_FIRE_UPROBE) << name;
		EXPECT_EQ(f.flow, flow) << name;
		EXPECT_EQ(f.engines, uint32_t{DT_ENGINE_BPF | DT_ENGINE_KMOD}) << name;
		ASSERT_NE(f.target, nullptr);
		EXPECT_STREQ(f.target, "malloc");
	}
}

TEST(PidOps, NoProcessesNoProbes)
{
	plugin_handle h(DT_PID_PLUGIN);
	ASSERT_NE(h.ops(), nullptr);
	for (const char *prov : {"", "pid*", "pid", "pidx", "syscall"}) {
		int rc = -1;
		EXPECT_TRUE(h.probes(prov, "", "", "", &rc).empty()) << prov;
		EXPECT_EQ(rc, 0);
	}
	EXPECT_TRUE(h.messages().empty());
}

// pid0 and a number no pid can be are refused as illumos dt_pid.c does
// (D_PROC_BADPID); this host has no desc_error, so the plugin logs it.
TEST(PidOps, ImpossiblePidsAreRefused)
{
	plugin_handle h(DT_PID_PLUGIN);
	ASSERT_NE(h.ops(), nullptr);
	EXPECT_TRUE(h.probes("pid0", "", "", "").empty());
	EXPECT_TRUE(h.probes("pid99999999999999999999", "", "", "").empty());
	ASSERT_EQ(h.messages().size(), 2u);
	EXPECT_EQ(h.messages()[0], "'pid0' does not contain a valid pid");
	EXPECT_EQ(h.messages()[1], "'pid99999999999999999999' does not contain a valid pid");
}

} // namespace
