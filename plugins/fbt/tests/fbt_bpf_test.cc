// SPDX-License-Identifier: MIT
// dt_fbt.so's bpf engine hook: fentry/fexit where the kernel's BPF
// trampolines work, else a kprobe/kretprobe on the function where the
// kernel has kprobes, else a refusal with the message users see. The
// test looks for kprobes itself (the perf `kprobe` PMU or tracefs
// kprobe_events, cross-checked with register_kprobe in /proc/kallsyms)
// and expects the branch that matches this machine; DTRACE_FBT_ATTACH=
// kprobe keeps the plugin off trampolines (attach_method.hpp).
#include "plugin_handle.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

namespace {

using dt::test::plugin_handle;

constexpr const char *k_tracefs = "/sys/kernel/tracing";

bool exists(const std::string &path)
{
	return access(path.c_str(), F_OK) == 0;
}

// Is register_kprobe() in the kernel's symbol table? It is exactly when
// the kernel is built with CONFIG_KPROBES: an independent witness of what
// the plugin finds through the kprobe interfaces.
bool kernel_has_register_kprobe()
{
	std::ifstream f("/proc/kallsyms");
	std::string line;
	while (std::getline(f, line))
		if (line.size() > 16 && line.ends_with(" register_kprobe"))
			return true;
	return false;
}

TEST(FbtBpf, KprobesOrTheMessage)
{
	setenv("DTRACE_FBT_ATTACH", "kprobe", 1);
	plugin_handle h(DT_FBT_PLUGIN, {}, k_tracefs);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	bool kprobes = exists("/sys/bus/event_source/devices/kprobe/type") ||
		       exists(std::string(k_tracefs) + "/kprobe_events");
	EXPECT_EQ(kprobes, kernel_has_register_kprobe())
		<< "the kprobe interfaces and the kernel's symbols disagree";
	dt_probe_info_t entry = {sizeof(entry), "fbt", "vmlinux", "vfs_read", "entry", 0};
	dt_probe_info_t ret = {sizeof(ret), "fbt", "vmlinux", "vfs_read", "return", 0};
	dt_bpf_attach_t a;
	if (!kprobes) {
		std::cout << "[ info     ] this kernel has no kprobes\n";
		EXPECT_EQ(h.bpf_attach(entry, a), -ENOTSUP);
		EXPECT_EQ(h.bpf_attach(ret, a), -ENOTSUP);
		size_t warned = 0;
		for (size_t i = 0; i < h.messages().size(); i++) {
			if (h.levels()[i] != DT_LOG_WARN)
				continue; // the debug line naming the method
			EXPECT_EQ(h.messages()[i], "fbt probes need kprobes or BPF trampolines, "
						   "which this kernel does not provide");
			warned++;
		}
		EXPECT_EQ(warned, 2u);
		unsetenv("DTRACE_FBT_ATTACH");
		return;
	}
	ASSERT_EQ(h.bpf_attach(entry, a), 0);
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_KPROBE);
	EXPECT_STREQ(a.target, "vfs_read");
	EXPECT_EQ(a.offset, 0u);
	EXPECT_EQ(a.ctx, DT_BPF_CTX_REGS);
	ASSERT_EQ(h.bpf_attach(ret, a), 0);
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_KRETPROBE);
	EXPECT_STREQ(a.target, "vfs_read");
	EXPECT_EQ(a.ctx, DT_BPF_CTX_REGS_RETURN);
	for (size_t i = 0; i < h.messages().size(); i++)
		EXPECT_EQ(h.levels()[i], DT_LOG_DEBUG) << h.messages()[i];
	unsetenv("DTRACE_FBT_ATTACH");
}

// Without the override the plugin asks the kernel for trampolines: on a
// kernel with none (and no kprobes: this machine's) the same refusal; on
// one with them, fentry/fexit at vfs_read's BTF id with its three
// arguments, and fexit's return value in slot 3 as args[1].
TEST(FbtBpf, FentryWhereTheKernelHasTrampolines)
{
	unsetenv("DTRACE_FBT_ATTACH");
	plugin_handle h(DT_FBT_PLUGIN, {}, k_tracefs);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	dt_probe_info_t entry = {sizeof(entry), "fbt", "vmlinux", "vfs_read", "entry", 0};
	dt_probe_info_t ret = {sizeof(ret), "fbt", "vmlinux", "vfs_read", "return", 0};
	dt_bpf_attach_t a;
	int rc = h.bpf_attach(entry, a);
	if (rc == -ENOTSUP)
		GTEST_SKIP() << "this kernel has neither BPF trampolines nor kprobes";
	ASSERT_EQ(rc, 0);
	if (a.kind == DT_BPF_ATTACH_KPROBE)
		GTEST_SKIP() << "this kernel refuses BPF trampolines (fbt uses kprobes)";
	ASSERT_EQ(a.kind, DT_BPF_ATTACH_FENTRY);
	EXPECT_STREQ(a.target, "vfs_read");
	EXPECT_NE(a.offset, 0u);
	EXPECT_EQ(a.ctx, DT_BPF_CTX_RAW);
	EXPECT_EQ(a.nargs, 3u);
	EXPECT_EQ(a.argmap[2], 2);
	EXPECT_EQ(a.argmap[3], -1);
	ASSERT_EQ(h.bpf_attach(ret, a), 0);
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_FEXIT);
	EXPECT_EQ(a.nargs, 4u);
	EXPECT_EQ(a.argmap[0], -1);
	EXPECT_EQ(a.argmap[1], 3);
}

// fires(): a kprobe on the function, entry and return flow (-F: -> <-),
// the bpf engine only (no kernel half).
TEST(FbtFires, KprobeWithFlow)
{
	plugin_handle h(DT_FBT_PLUGIN, {}, k_tracefs);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	dt_probe_info_t entry = {sizeof(entry), "fbt", "vmlinux", "vfs_read", "entry", 0};
	dt_probe_info_t ret = {sizeof(ret), "fbt", "vmlinux", "vfs_read", "return", 0};
	dt_probe_fire_t f;
	ASSERT_EQ(h.fires(entry, f), 0);
	EXPECT_EQ(f.kind, DT_FIRE_KPROBE);
	ASSERT_NE(f.target, nullptr);
	EXPECT_STREQ(f.target, "vfs_read");
	EXPECT_EQ(f.flow, DT_FLOW_ENTRY);
	EXPECT_EQ(f.flags, 0u);
	EXPECT_EQ(f.engines, uint32_t{DT_ENGINE_BPF | DT_ENGINE_KMOD});
	ASSERT_EQ(h.fires(ret, f), 0);
	EXPECT_EQ(f.flow, DT_FLOW_RETURN);
	EXPECT_EQ(f.errno_src, DT_ERRNO_NONE);
	dt_probe_info_t other = {sizeof(other), "fbt", "vmlinux", "vfs_read", "fire", 0};
	EXPECT_EQ(h.fires(other, f), -ENOENT);
}

TEST(FbtBpf, NotAnFbtProbe)
{
	plugin_handle h(DT_FBT_PLUGIN, {}, k_tracefs);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	dt_probe_info_t p = {sizeof(p), "fbt", "vmlinux", "vfs_read", "middle", 0};
	dt_bpf_attach_t a;
	EXPECT_EQ(h.bpf_attach(p, a), -ENOENT);
	p.name = "entry";
	p.func = "";
	EXPECT_EQ(h.bpf_attach(p, a), -ENOENT);
}

} // namespace

// The kmod table: dtrace_fbt.ko, and the hook that writes it the functions
// (plugin.h kmod provide); without the module loaded it says why.
TEST(FbtKmod, ProvideNamesTheModuleOrSaysWhyNot)
{
	plugin_handle h(DT_FBT_PLUGIN, {}, k_tracefs);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	const dt_plugin_kmod_ops_t *k = h.ops()->kmod;
	ASSERT_NE(k, nullptr);
	EXPECT_STREQ(k->module, "dtrace_fbt");
	ASSERT_TRUE(DT_ABI_HAS(k, provide));
	ASSERT_NE(k->provide, nullptr);
	if (access("/sys/module/dtrace_fbt", F_OK) == 0)
		GTEST_SKIP() << "dtrace_fbt is loaded here: not writing to it";
	dt_probe_info_t p = {sizeof(p), "fbt", "vmlinux", "vfs_read", "entry", 0};
	EXPECT_EQ(k->provide(h.state(), &p, 1), -ENOENT);
	ASSERT_FALSE(h.messages().empty());
	EXPECT_NE(h.messages().back().find(
			  "fbt: cannot open /sys/module/dtrace_fbt/parameters/provide: "),
		  std::string::npos)
		<< h.messages().back();
}
