// SPDX-License-Identifier: MIT
// dt_tcp.so's bpf engine hook against the running kernel: every probe
// attaches to a raw tracepoint with its filter program, and each native
// argument comes from a raw argument of the right type in the
// tracepoint's TP_PROTO (the kernel's BTF). What the probes see of real
// loopback connections is net_host_test.py's (dtrace end to end).
#include "btf_tracepoints.hpp"
#include "plugin_handle.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <netinet/in.h>

#include <cerrno>
#include <map>
#include <string>

namespace {

using dt::test::kernel_btf;
using dt::test::plugin_handle;
using dt::test::reported_probe;

struct attached {
	int rc;
	dt_bpf_attach_t a;
	std::string message;
};

std::map<std::string, attached> attach_all(plugin_handle &h)
{
	std::map<std::string, attached> out;
	for (const reported_probe &p : h.probes("tcp", "", "", "")) {
		size_t before = h.messages().size();
		attached r{};
		r.rc = h.bpf_attach(p, r.a);
		if (h.messages().size() > before)
			r.message = h.messages().back();
		out[p.name] = r;
	}
	return out;
}

// The kernel's type for a native type of the tcp provider: a tcp_sock is
// the sock the tracepoints pass.
std::string kernel_type(const std::string &native)
{
	return native == "struct tcp_sock *" ? "struct sock *" : native;
}

TEST(TcpBpf, EveryProbeAttachesWithItsFilter)
{
	kernel_btf btf;
	if (!btf.loaded())
		GTEST_SKIP() << "no kernel BTF (/sys/kernel/btf/vmlinux)";
	plugin_handle h(DT_TCP_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	auto all = attach_all(h);
	ASSERT_EQ(all.size(), 8u);
	for (const auto &[name, r] : all) {
		ASSERT_EQ(r.rc, 0) << name << ": " << r.message;
		// receive (tcp_probe) is TCP's alone; the others share their
		// tracepoint and are told apart by a filter program.
		if (name == "receive") {
			EXPECT_EQ(r.a.has_filter, 0);
			continue;
		}
		EXPECT_EQ(r.a.has_filter, 1) << name;
		EXPECT_GT(r.a.filter_nsteps, 0u) << name;
		EXPECT_LE(r.a.filter_nsteps, uint32_t{DT_BPF_FILTER_STEPS}) << name;
		EXPECT_EQ(r.a.filter_steps[0].op, DT_BPF_FOP_ARG) << name;
	}
	// The transitions' keys: IPPROTO_TCP << 8 | old << 4 | new.
	EXPECT_EQ(all["accept-established"].a.filter, (IPPROTO_TCP << 8) | 0x31);
	EXPECT_EQ(all["connect-established"].a.filter, (IPPROTO_TCP << 8) | 0x21);
	EXPECT_EQ(all["state-change"].a.filter, IPPROTO_TCP);
	EXPECT_EQ(all["send"].a.filter, IPPROTO_TCP);
	EXPECT_EQ(all["connect-request"].a.filter, (IPPROTO_TCP << 8) | 0x02); // SYN
	EXPECT_EQ(all["accept-refused"].a.filter, 0x02);
	EXPECT_EQ(all["connect-refused"].a.filter, 2); // TCP_SYN_SENT
}

TEST(TcpBpf, ArgumentMapMatchesTheKernelsPrototypes)
{
	kernel_btf btf;
	if (!btf.loaded())
		GTEST_SKIP() << "no kernel BTF (/sys/kernel/btf/vmlinux)";
	plugin_handle h(DT_TCP_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	auto all = attach_all(h);
	size_t checked = 0;
	for (const reported_probe &p : h.probes("tcp", "", "", "")) {
		const attached &r = all[p.name];
		if (r.rc != 0)
			continue;
		EXPECT_EQ(r.a.kind, DT_BPF_ATTACH_RAW_TRACEPOINT);
		EXPECT_EQ(r.a.ctx, DT_BPF_CTX_RAW);
		EXPECT_EQ(r.a.has_argmap, 1);
		auto proto = btf.raw_tracepoint(r.a.target);
		ASSERT_TRUE(proto.has_value()) << p.name << ": no raw tracepoint " << r.a.target;
		EXPECT_EQ(proto->size(), r.a.nargs) << p.name;
		for (const auto &arg : h.args(p)) {
			int32_t raw = r.a.argmap[arg.mapping];
			// No value: void slots (state-change's args[2] carries the
			// new state for tcpsinfo_t, an int), and the argument the
			// tracepoint does not give (NULL: the translators find it
			// through the other one).
			if (arg.native == "void")
				continue;
			if (raw < 0)
				continue;
			ASSERT_GE(raw, 0) << p.name << " args[" << arg.ndx << "]";
			ASSERT_LT(static_cast<size_t>(raw), proto->size());
			EXPECT_EQ((*proto)[raw].type, kernel_type(arg.native))
				<< p.name << " args[" << arg.ndx << "] from raw argument " << raw;
			checked++;
		}
	}
	EXPECT_GE(checked, 16u);
}

} // namespace
