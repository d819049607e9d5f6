// SPDX-License-Identifier: MIT
// The pid plugin's bpf engine hook against a live target: entry and
// instruction probes are uprobes, return probes uretprobes, for that
// process only, on the very file the process runs (same device and
// inode, reached through /proc/PID/root) at the probe's cookie, for the
// executable (a.out) and a library (libc) alike.
#include "plugin_handle.hpp"
#include "target_process.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cerrno>
#include <string>

namespace {

using namespace dt::test::pid;
using dt::test::plugin_handle;

struct file_id {
	dev_t dev;
	ino_t ino;
	bool operator==(const file_id &) const = default;
};

file_id id_of(const std::string &path)
{
	struct stat st {};
	EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
	return {st.st_dev, st.st_ino};
}

TEST(PidBpf, ProbesAreUprobesOnTheProcessesFile)
{
	target_process t;
	ASSERT_TRUE(t.ready()) << t.output();
	plugin_handle h(DT_PID_PLUGIN, {t.pid()});
	ASSERT_NE(h.ops(), nullptr);
	std::string prov = "pid" + std::to_string(t.pid());
	file_id exe = id_of("/proc/" + std::to_string(t.pid()) + "/exe");

	size_t n = 0;
	for (const auto &p : h.probes(prov.c_str(), "a.out", "dt_pid_target_add", "")) {
		dt_bpf_attach_t a;
		ASSERT_EQ(h.bpf_attach(p, a), 0) << p.name;
		EXPECT_EQ(a.kind,
			  p.name == "return" ? DT_BPF_ATTACH_URETPROBE : DT_BPF_ATTACH_UPROBE)
			<< p.name;
		// entry is the function's first instruction; an offset is past it.
		EXPECT_EQ(a.ctx, p.name == "return"  ? DT_BPF_CTX_REGS_RETURN
				 : p.name == "entry" ? DT_BPF_CTX_REGS
						     : DT_BPF_CTX_REGS_INSN)
			<< p.name;
		EXPECT_EQ(a.offset, p.cookie) << p.name;
		EXPECT_EQ(a.pid, t.pid());
		ASSERT_NE(a.target, nullptr);
		EXPECT_EQ(std::string(a.target).rfind("/proc/" + std::to_string(t.pid()) + "/root/",
						      0),
			  0u)
			<< a.target;
		EXPECT_TRUE(id_of(a.target) == exe)
			<< a.target << " is not the process's executable";
		n++;
	}
	EXPECT_GE(n, 4u); // entry, return, and instruction offsets

	auto libc = h.probes(prov.c_str(), "libc.so.6", "malloc", "entry");
	ASSERT_EQ(libc.size(), 1u);
	dt_bpf_attach_t a;
	ASSERT_EQ(h.bpf_attach(libc[0], a), 0);
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_UPROBE);
	EXPECT_EQ(a.offset, libc[0].cookie);
	EXPECT_NE(std::string(a.target).find("libc.so.6"), std::string::npos) << a.target;
	EXPECT_TRUE(h.messages().empty());
}

TEST(PidBpf, AGoneProcessIsRefused)
{
	pid_t gone;
	{
		target_process t;
		ASSERT_TRUE(t.ready()) << t.output();
		gone = t.pid();
	}
	plugin_handle h(DT_PID_PLUGIN, {gone});
	ASSERT_NE(h.ops(), nullptr);
	std::string prov = "pid" + std::to_string(gone);
	dt_probe_info_t p = {sizeof(p),		  prov.c_str(), "a.out",
			     "dt_pid_target_add", "entry",	0x1000};
	dt_bpf_attach_t a;
	EXPECT_LT(h.bpf_attach(p, a), 0);
	ASSERT_EQ(h.messages().size(), 1u);
	EXPECT_NE(h.messages()[0].find(std::to_string(gone)), std::string::npos) << h.messages()[0];
}

} // namespace
