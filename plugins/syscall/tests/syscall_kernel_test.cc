// SPDX-License-Identifier: MIT
// The syscall provider's bpf engine hook against the running kernel
// (host, root): the sys_enter/sys_exit raw tracepoints it names exist
// with the arity it says, every system call this kernel lists gets a
// distinct number (or a refusal that names it), and the numbers are the
// kernel's: invoking syscall(N) with the plugin's N for `name` makes the
// kernel fire syscalls:sys_enter_<name> (watched in a tracefs instance of
// our own, filtered to this thread).
#include "btf_tracepoints.hpp"
#include "plugin_handle.hpp"
#include "run_dtrace.hpp"
#include "trace_instance.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using dt::test::plugin_handle;

constexpr const char *k_tracefs = "/sys/kernel/tracing";

bool have_syscall_events()
{
	return fs::is_directory(std::string(k_tracefs) + "/events/syscalls");
}

TEST(SyscallKernel, RawTracepointsExistWithTwoArguments)
{
	dt::test::kernel_btf btf;
	if (!btf.loaded())
		GTEST_SKIP() << "no kernel BTF (/sys/kernel/btf/vmlinux)";
	plugin_handle h(DT_SYSCALL_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	for (const char *name : {"entry", "return"}) {
		dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", "read", name, 0};
		dt_bpf_attach_t a;
		ASSERT_EQ(h.bpf_attach(p, a), 0);
		auto params = btf.raw_tracepoint(a.target);
		ASSERT_TRUE(params.has_value()) << a.target << " is not a raw tracepoint here";
		EXPECT_EQ(params->size(), a.nargs) << a.target;
		ASSERT_GE(params->size(), 2u);
		EXPECT_EQ((*params)[0].type, "struct pt_regs *") << a.target;
		EXPECT_EQ((*params)[1].type, "long int") << a.target;
	}
}

TEST(SyscallKernel, EveryListedCallHasADistinctNumberOrSaysWhy)
{
	if (!dt::test::is_root() || !have_syscall_events())
		GTEST_SKIP() << "needs root and tracefs events/syscalls";
	plugin_handle h(DT_SYSCALL_PLUGIN, {}, k_tracefs);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	std::map<int64_t, std::string> by_nr;
	std::vector<std::string> refused;
	size_t calls = 0;
	for (const auto &p : h.probes("syscall", "", "", "entry")) {
		calls++;
		dt_bpf_attach_t a;
		size_t before = h.messages().size();
		int rc = h.bpf_attach(p, a);
		if (rc == -ENOTSUP) {
			ASSERT_EQ(h.messages().size(), before + 1);
			EXPECT_NE(h.messages().back().find(p.func), std::string::npos)
				<< h.messages().back();
			refused.push_back(p.func);
			continue;
		}
		ASSERT_EQ(rc, 0) << p.func;
		ASSERT_EQ(a.has_filter, 1);
		auto [it, fresh] = by_nr.emplace(a.filter, p.func);
		EXPECT_TRUE(fresh)
			<< p.func << " and " << it->second << " both got number " << a.filter;
	}
	ASSERT_GT(calls, 200u) << "this kernel lists few system calls";
	std::string list;
	for (const auto &r : refused)
		list += " " + r;
	std::cout << "[ info     ] " << calls << " system calls, " << refused.size()
		  << " without a known number:" << list << "\n";
	// The headers and the supplement cover this machine's kernel; a newer
	// kernel may add a few, never most.
	EXPECT_LT(refused.size() * 20, calls) << list;
}

// System calls that can be made with arguments that make them fail (or
// do nothing) harmlessly, including the entry points whose name is not
// their __NR_ name and the calls newer than many distributions' headers.
struct harmless_call {
	const char *name;
	long args[6];
};

const harmless_call k_calls[] = {
	{"getppid", {}},
	{"getpid", {}},
	{"gettid", {}},
	{"getuid", {}},
	{"umask", {022}},
	{"newuname", {}}, // buffer filled in below
	{"newstat", {}},
	{"newlstat", {}},
	{"newfstat", {-1}},
	{"umount", {}}, // path filled in below
	{"sendfile64", {-1, -1, 0, 0}},
	{"process_mrelease", {-1, 0}},
	{"futex_waitv", {0, 0, -1, 0, 0}},
	{"set_mempolicy_home_node", {0, 0, 0, -1}},
	{"cachestat", {-1, 0, 0, 0}},
	{"fchmodat2", {-1, 0, 0, -1}},
	{"map_shadow_stack", {0, 0, -1}},
	{"futex_wake", {0, 0, 0, -1}},
	{"futex_wait", {0, 0, 0, -1, 0, 0}},
	{"futex_requeue", {0, -1, 0, 0}},
	{"statmount", {0, 0, 0, -1}},
	{"listmount", {0, 0, 0, -1}},
	{"lsm_get_self_attr", {0, 0, 0, -1}},
	{"lsm_set_self_attr", {0, 0, 0, -1}},
	{"lsm_list_modules", {0, 0, -1}},
	{"mseal", {0, 0, -1}},
	{"setxattrat", {-1, 0, -1, 0, 0, 0}},
	{"getxattrat", {-1, 0, -1, 0, 0, 0}},
	{"listxattrat", {-1, 0, -1, 0, 0}},
	{"removexattrat", {-1, 0, -1, 0}},
	{"open_tree_attr", {-1, 0, -1, 0, 0}},
	{"file_getattr", {-1, 0, 0, 0, -1}},
	{"file_setattr", {-1, 0, 0, 0, -1}},
};

TEST(SyscallKernel, NumbersAreTheKernels)
{
	if (!dt::test::is_root() || !have_syscall_events())
		GTEST_SKIP() << "needs root and tracefs events/syscalls";
	plugin_handle h(DT_SYSCALL_PLUGIN, {}, k_tracefs);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	dt::test::trace_instance inst("dt-syscall-test");
	if (!inst.ok())
		GTEST_SKIP() << "cannot create a tracefs instance: " << std::strerror(errno);

	char buf[4096] = {};
	static const char missing[] = "/nonexistent-dt-syscall-test";
	std::vector<std::pair<std::string, int64_t>> made;
	for (const auto &c : k_calls) {
		std::string event = std::string("sys_enter_") + c.name;
		if (!fs::exists(std::string(k_tracefs) + "/events/syscalls/" + event))
			continue; // not a system call of this kernel
		dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", c.name, "entry", 0};
		dt_bpf_attach_t a;
		ASSERT_EQ(h.bpf_attach(p, a), 0)
			<< c.name << ": " << (h.messages().empty() ? "" : h.messages().back());
		ASSERT_TRUE(inst.enable("syscalls/" + event,
					"common_pid == " + std::to_string(gettid())))
			<< event;
		made.emplace_back(c.name, a.filter);
	}
	ASSERT_GE(made.size(), 10u);
	for (const auto &[name, nr] : made) {
		long args[6] = {};
		for (const auto &c : k_calls)
			if (name == c.name)
				std::copy(std::begin(c.args), std::end(c.args), args);
		if (name == "newuname" || name == "newstat" || name == "newlstat") {
			args[0] = name == "newuname" ? reinterpret_cast<long>(buf)
						     : reinterpret_cast<long>("/");
			args[1] = reinterpret_cast<long>(buf);
		} else if (name == "umount") {
			args[0] = reinterpret_cast<long>(missing);
		}
		(void)syscall(nr, args[0], args[1], args[2], args[3], args[4], args[5]);
	}
	std::string trace = inst.trace();
	for (const auto &[name, nr] : made)
		EXPECT_NE(trace.find(" sys_" + name + "("), std::string::npos)
			<< "syscall(" << nr << ") did not fire syscalls:sys_enter_" << name
			<< ": the kernel's number for " << name << " is not " << nr;
}

} // namespace
