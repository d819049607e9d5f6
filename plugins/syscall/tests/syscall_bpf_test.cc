// SPDX-License-Identifier: MIT
// dt_syscall.so's bpf engine hook, loaded directly (no tracefs needed:
// attach() works from the probe's name): every probe is the sys_enter or
// sys_exit raw tracepoint filtered by the system call's number, the
// numbers are this architecture's (<sys/syscall.h>, glibc's own copy of
// the kernel's table), unknown calls are refused with a message, and a
// host built against an older plugin.h gets no bytes past its struct.
#include "plugin_handle.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

namespace {

using dt::test::plugin_handle;

int attach(plugin_handle &h, const char *func, const char *name, dt_bpf_attach_t &out)
{
	dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", func, name, 0};
	return h.bpf_attach(p, out);
}

TEST(SyscallBpf, EntryIsSysEnterFilteredByNumber)
{
	plugin_handle h(DT_SYSCALL_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	dt_bpf_attach_t a;
	ASSERT_EQ(attach(h, "getppid", "entry", a), 0);
	EXPECT_EQ(a.sz, sizeof(a));
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_RAW_TRACEPOINT);
	EXPECT_STREQ(a.target, "sys_enter");
	EXPECT_EQ(a.has_filter, 1);
	EXPECT_EQ(a.filter, SYS_getppid);
	EXPECT_EQ(a.ctx, DT_BPF_CTX_SYS_ENTER);
	EXPECT_EQ(a.nargs, 2u); // TP_PROTO(struct pt_regs *regs, long id)
	EXPECT_EQ(a.has_filter_arg, 0);
	EXPECT_TRUE(h.messages().empty());
}

TEST(SyscallBpf, ReturnIsSysExitFilteredByTheSameNumber)
{
	plugin_handle h(DT_SYSCALL_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	for (auto [func, nr] : {std::pair{"read", SYS_read},
				{"openat", SYS_openat},
				{"exit_group", SYS_exit_group},
				{"clone3", SYS_clone3}}) {
		dt_bpf_attach_t e, r;
		ASSERT_EQ(attach(h, func, "entry", e), 0) << func;
		ASSERT_EQ(attach(h, func, "return", r), 0) << func;
		EXPECT_STREQ(r.target, "sys_exit");
		EXPECT_EQ(r.kind, DT_BPF_ATTACH_RAW_TRACEPOINT);
		EXPECT_EQ(r.ctx, DT_BPF_CTX_SYS_EXIT);
		EXPECT_EQ(e.filter, nr) << func;
		EXPECT_EQ(r.filter, nr) << func;
		EXPECT_EQ(r.has_filter, 1);
	}
}

// The kernel's entry-point names that are not their __NR_ names.
TEST(SyscallBpf, EntryPointNamesMapToTheirNumbers)
{
	plugin_handle h(DT_SYSCALL_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	struct {
		const char *event;
		long nr;
	} cases[] = {
#ifdef SYS_stat
		{"newstat", SYS_stat},	 {"newlstat", SYS_lstat}, {"newfstat", SYS_fstat},
#endif
		{"newuname", SYS_uname}, {"umount", SYS_umount2},
	};
	for (const auto &c : cases) {
		dt_bpf_attach_t a;
		ASSERT_EQ(attach(h, c.event, "entry", a), 0) << c.event;
		EXPECT_EQ(a.filter, c.nr) << c.event;
	}
}

TEST(SyscallBpf, UnknownCallIsRefusedWithAMessage)
{
	plugin_handle h(DT_SYSCALL_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	dt_bpf_attach_t a;
	EXPECT_EQ(attach(h, "no_such_call", "entry", a), -ENOTSUP);
	ASSERT_EQ(h.messages().size(), 1u);
	EXPECT_EQ(h.levels()[0], DT_LOG_WARN);
	EXPECT_NE(h.messages()[0].find("no_such_call"), std::string::npos) << h.messages()[0];
	EXPECT_NE(h.messages()[0].find("number"), std::string::npos) << h.messages()[0];
	// Not a syscall probe at all: no such probe, and nothing to say.
	EXPECT_EQ(attach(h, "read", "exit", a), -ENOENT);
	EXPECT_EQ(attach(h, "../read", "entry", a), -ENOENT);
	EXPECT_EQ(h.messages().size(), 1u);
}

// fires(): the tracefs event, a system call's flow (-F: => <=), errno
// from the return value in arg0 on return only, the kernel engines.
TEST(SyscallFires, EntryAndReturnAcrossTheSystemCall)
{
	plugin_handle h(DT_SYSCALL_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	dt_probe_info_t e = {sizeof(e), "syscall", "vmlinux", "getppid", "entry", 0};
	dt_probe_info_t r = {sizeof(r), "syscall", "vmlinux", "getppid", "return", 0};
	dt_probe_fire_t f;
	ASSERT_EQ(h.fires(e, f), 0);
	EXPECT_EQ(f.kind, DT_FIRE_TRACEPOINT);
	ASSERT_NE(f.target, nullptr);
	EXPECT_STREQ(f.target, "syscalls:sys_enter_getppid");
	EXPECT_EQ(f.flow, DT_FLOW_ENTRY);
	EXPECT_EQ(f.flags, uint32_t{DT_FIRE_F_SYSCALL});
	EXPECT_EQ(f.errno_src, DT_ERRNO_NONE);
	EXPECT_EQ(f.engines, uint32_t{DT_ENGINE_BPF | DT_ENGINE_KMOD});
	ASSERT_EQ(h.fires(r, f), 0);
	EXPECT_STREQ(f.target, "syscalls:sys_exit_getppid");
	EXPECT_EQ(f.flow, DT_FLOW_RETURN);
	EXPECT_EQ(f.flags, uint32_t{DT_FIRE_F_SYSCALL});
	EXPECT_EQ(f.errno_src, DT_ERRNO_RETURN_ARG0);
	// A system call whose number this build does not know: kmod only.
	dt_probe_info_t u = {sizeof(u), "syscall", "vmlinux", "no_such_call", "entry", 0};
	ASSERT_EQ(h.fires(u, f), 0);
	EXPECT_EQ(f.engines, uint32_t{DT_ENGINE_KMOD});
	dt_probe_info_t bad = {sizeof(bad), "syscall", "vmlinux", "getppid", "fire", 0};
	EXPECT_EQ(h.fires(bad, f), -ENOENT);
}

// A host whose dt_bpf_attach_t ends before the ABI 1.1 fields: the plugin
// fills what the host has and leaves the rest of its memory alone.
TEST(SyscallBpf, OlderHostStructIsNotOverrun)
{
	plugin_handle h(DT_SYSCALL_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	constexpr size_t old_sz = offsetof(dt_bpf_attach_t, ctx);
	dt_bpf_attach_t a;
	std::memset(&a, 0xa5, sizeof(a));
	a.sz = old_sz;
	dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", "getppid", "entry", 0};
	ASSERT_EQ(h.ops()->bpf->attach(h.state(), &p, &a), 0);
	EXPECT_EQ(a.sz, old_sz);
	EXPECT_EQ(a.kind, DT_BPF_ATTACH_RAW_TRACEPOINT);
	EXPECT_EQ(a.filter, SYS_getppid);
	const auto *bytes = reinterpret_cast<const unsigned char *>(&a);
	for (size_t i = old_sz; i < sizeof(a); i++)
		ASSERT_EQ(bytes[i], 0xa5) << "byte " << i << " past the host's struct was written";
}

} // namespace
