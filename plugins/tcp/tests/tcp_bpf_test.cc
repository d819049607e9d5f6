// SPDX-License-Identifier: MIT
// dt_tcp.so's bpf engine hook against the running kernel: which probes
// attach to which raw tracepoint, that each native argument comes from a
// raw argument of the right type in the tracepoint's TP_PROTO (the
// kernel's BTF), that the probes without a tracepoint say why, and that
// the filters pick the right events of real loopback connections, as the
// kernel's own tracepoints report them in a tracefs instance (host, root).
#include "btf_tracepoints.hpp"
#include "plugin_handle.hpp"
#include "run_dtrace.hpp"
#include "trace_instance.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <regex>
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

TEST(TcpBpf, ProbesWithoutATracepointSayWhy)
{
	plugin_handle h(DT_TCP_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	auto all = attach_all(h);
	ASSERT_EQ(all.size(), 8u);
	for (const char *name :
	     {"accept-established", "connect-established", "connect-refused", "send"}) {
		EXPECT_EQ(all[name].rc, -ENOTSUP) << name;
		EXPECT_EQ(all[name].message.rfind(std::string("tcp:::") + name + " needs ", 0), 0u)
			<< all[name].message;
	}
	EXPECT_NE(all["send"].message.find("ip_queue_xmit"), std::string::npos);
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
			// No value: void slots, the IP and TCP headers, which need
			// the skb read, and connect-request's packet, as it is built
			// on a state transition (documented gaps).
			if (arg.native == "void" || arg.native == "__u8 *" ||
			    arg.native == "struct tcphdr *" ||
			    (p.name == "connect-request" && arg.native == "struct sk_buff *")) {
				EXPECT_EQ(raw, -1) << p.name << " args[" << arg.ndx << "]";
				continue;
			}
			ASSERT_GE(raw, 0) << p.name << " args[" << arg.ndx << "]";
			ASSERT_LT(static_cast<size_t>(raw), proto->size());
			EXPECT_EQ((*proto)[raw].type, kernel_type(arg.native))
				<< p.name << " args[" << arg.ndx << "] from raw argument " << raw;
			checked++;
		}
	}
	EXPECT_GE(checked, 10u);
}

TEST(TcpBpf, FiltersNameTheRightArgument)
{
	kernel_btf btf;
	if (!btf.loaded())
		GTEST_SKIP() << "no kernel BTF (/sys/kernel/btf/vmlinux)";
	plugin_handle h(DT_TCP_PLUGIN);
	ASSERT_NE(h.ops(), nullptr) << h.error();
	auto all = attach_all(h);
	const dt_bpf_attach_t &req = all["connect-request"].a;
	ASSERT_EQ(all["connect-request"].rc, 0);
	EXPECT_STREQ(req.target, "inet_sock_set_state");
	ASSERT_EQ(req.has_filter_arg, 1);
	EXPECT_EQ(req.filter_arg, 2); // newstate
	EXPECT_EQ((*btf.raw_tracepoint(req.target))[2].type, "int");
	EXPECT_EQ(req.filter, TCP_SYN_SENT);
	const dt_bpf_attach_t &ref = all["accept-refused"].a;
	ASSERT_EQ(all["accept-refused"].rc, 0);
	EXPECT_STREQ(ref.target, "tcp_send_reset");
	ASSERT_EQ(ref.has_filter_arg, 1);
	EXPECT_EQ((*btf.raw_tracepoint(ref.target))[ref.filter_arg].type, "struct sock *");
	EXPECT_EQ(ref.filter, 0); // no socket
	EXPECT_EQ(all["state-change"].a.has_filter, 0);
}

// A loopback connection refused (no listener) and one accepted.
void make_connections()
{
	sockaddr_in addr{};
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int l = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_EQ(bind(l, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
	socklen_t len = sizeof(addr);
	ASSERT_EQ(getsockname(l, reinterpret_cast<sockaddr *>(&addr), &len), 0);
	close(l); // the port is now closed: a connect is refused
	int c = socket(AF_INET, SOCK_STREAM, 0);
	EXPECT_NE(connect(c, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
	close(c);

	l = socket(AF_INET, SOCK_STREAM, 0);
	addr.sin_port = 0;
	ASSERT_EQ(bind(l, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
	ASSERT_EQ(listen(l, 1), 0);
	ASSERT_EQ(getsockname(l, reinterpret_cast<sockaddr *>(&addr), &len), 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_EQ(connect(c, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
	int a = accept(l, nullptr, nullptr);
	EXPECT_GE(a, 0);
	close(c);
	close(a);
	close(l);
}

TEST(TcpBpf, FiltersPickRealConnectionEvents)
{
	if (!dt::test::is_root())
		GTEST_SKIP() << "needs root (tracefs instances)";
	dt::test::trace_instance inst("dt-tcp-test");
	if (!inst.ok())
		GTEST_SKIP() << "cannot create a tracefs instance: " << std::strerror(errno);
	std::string me = "common_pid == " + std::to_string(getpid());
	ASSERT_TRUE(inst.enable("sock/inet_sock_set_state", me));
	ASSERT_TRUE(inst.enable("tcp/tcp_send_reset", me));
	make_connections();
	std::string trace = inst.trace();

	// connect-request (newstate == TCP_SYN_SENT): once per connect().
	std::regex state(
		R"(inet_sock_set_state: .*protocol=IPPROTO_TCP .*oldstate=(\w+) newstate=(\w+))");
	int syn_sent = 0, transitions = 0;
	for (auto it = std::sregex_iterator(trace.begin(), trace.end(), state);
	     it != std::sregex_iterator(); ++it) {
		transitions++;
		if ((*it)[2] == "TCP_SYN_SENT") {
			syn_sent++;
			EXPECT_EQ((*it)[1], "TCP_CLOSE");
		}
	}
	EXPECT_EQ(syn_sent, 2) << trace;
	EXPECT_GE(transitions, 8) << trace; // state-change sees them all

	// accept-refused (tcp_send_reset without a socket): the refused one.
	std::regex reset(R"(tcp_send_reset: skbaddr=\S+ skaddr=(\S+) .*reason=(\w+))");
	int refused = 0;
	for (auto it = std::sregex_iterator(trace.begin(), trace.end(), reset);
	     it != std::sregex_iterator(); ++it) {
		if (std::stoull((*it)[1], nullptr, 16) == 0) {
			refused++;
			EXPECT_EQ((*it)[2], "NO_SOCKET");
		}
	}
	EXPECT_EQ(refused, 1) << trace;
}

} // namespace
