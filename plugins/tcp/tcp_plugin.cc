// SPDX-License-Identifier: MIT
// The tcp provider (dt_tcp.so): TCP connection and segment probes, a
// tracepoint-backed provider made of one table, k_probes below: each row
// is the probe-name mapping (raw tracepoint -> tcp:vmlinux::<name>), its
// argument map and filter for the bpf engine, and its typed arguments.
// The rows' order is the probes' (and so their numbering): accept-*,
// connect-*, send, receive, state-change; the cookie is the row's index.
// dt::sdk::tracepoint_ops (dtrace/plugin.hpp) makes the ops of the table;
// the bpf hook adds each row's filter program (../common/net_filter.hpp,
// plugin.h ABI 1.6), built from the kernel's BTF.
//
// Arguments are the Guide's (illumos sdt_subr.c sdt_args[]), with Linux
// native types that lib/dtrace/tcp.d translates, the same for every
// probe: the packet (struct sk_buff *) as args[0], [2] and [4] (the IP
// and TCP headers are read through it: skb->head + network_header and
// transport_header), the connection (struct sock *) as args[1] and [3].
// Where the tracepoint gives only one, the other is NULL and the
// translators find it through the one given: a packet's socket is
// skb->sk; a probe without a packet (a state transition) gets its IP and
// TCP information from the socket, as the inbound segment it stands for
// (SYN-ACK, ACK, RST) would carry it. state-change has args[5], the
// previous state (a TCP_* value) seen as tcplsinfo_t *.
//
//   probe               raw tracepoint         filter (net_filter.hpp)
//   accept-established  inet_sock_set_state    TCP, SYN_RECV -> ESTABLISHED
//   accept-refused      tcp_send_reset         no socket, the segment a SYN
//   connect-request     net_dev_queue          TCP, flags SYN without ACK
//   connect-established inet_sock_set_state    TCP, SYN_SENT -> ESTABLISHED
//   connect-refused     tcp_receive_reset      socket in SYN_SENT
//   send                net_dev_queue          IP protocol TCP
//   receive             tcp_probe              (TCP only; ESTABLISHED)
//   state-change        inet_sock_set_state    TCP
//
// What Linux's tracepoints cannot give: receive fires for segments of
// established connections only (tcp_probe is in tcp_rcv_established();
// handshake and closing segments go through tcp_rcv_state_process(),
// which has none); send fires per packet handed to a device
// (dev_queue_xmit), so a TSO/GSO packet is one firing, and connect-request
// (a SYN leaving) fires again for a retransmitted SYN. The kernel half (plugins/tcp/kernel,
// the kmod engine) fires the same probes with the same arguments.
#include "net_filter.hpp"
#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

#include <array>
#include <string>

namespace dt::plugin::tcp {
namespace {

using dt::sdk::table_arg;
using dt::sdk::tp_probe;

// Every probe's (a clause may name several, and is compiled once): the
// packet at 0, 2, 4, the connection at 1 and 3; an argument the
// tracepoint does not give is NULL, and tcp.d finds it through the other
// (skb->sk; the socket's view for a transition).
constexpr std::array<table_arg, 6> k_args = {{
	{0, "struct sk_buff *", "pktinfo_t *"},
	{1, "struct sock *", "csinfo_t *"},
	{2, "struct sk_buff *", "ipinfo_t *"},
	{3, "struct tcp_sock *", "tcpsinfo_t *"},
	{4, "struct sk_buff *", "tcpinfo_t *"},
	{0, nullptr, nullptr},
}};

// argmaps of a tracepoint whose raw argument 0 is the packet, the socket.
constexpr std::array<int32_t, 6> k_skb0 = {0, -1, 0, -1, 0, -1};
constexpr std::array<int32_t, 6> k_sk0 = {-1, 0, -1, 0, -1, -1};

// include/net/tcp_states.h
enum : int32_t {
	k_established = 1,
	k_syn_sent = 2,
	k_syn_recv = 3,
};

// How a row's filter program is made (net_filter.hpp).
enum class key { none, transition, reset_no_sock, sock_state, l4_proto, syn, sock_proto };

struct row_filter {
	key k;
	int64_t value;
};

// By row, in k_probes' order.
constexpr row_filter k_filters[] = {
	{key::transition, (net::k_ipproto_tcp << 8) | (k_syn_recv << 4) | k_established},
	{key::reset_no_sock, net::k_th_syn},
	{key::syn, (net::k_ipproto_tcp << 8) | net::k_th_syn},
	{key::transition, (net::k_ipproto_tcp << 8) | (k_syn_sent << 4) | k_established},
	{key::sock_state, k_syn_sent},
	{key::l4_proto, net::k_ipproto_tcp},
	{key::none, 0},
	{key::sock_proto, net::k_ipproto_tcp},
};

constexpr tp_probe k_probes[] = {
	// inet_sock_set_state(sk, oldstate, newstate)
	{.name = "accept-established",
	 .args = k_args,
	 .event = "inet_sock_set_state",
	 .nargs = 3,
	 .argmap = k_sk0,
	 .kmod = true},
	// tcp_send_reset(sk, skb[, reason]) with sk NULL: the reset for a
	// SYN no socket wanted.
	{.name = "accept-refused",
	 .args = k_args,
	 .event = "tcp_send_reset",
	 .nargs = 2,
	 .argmap = {1, -1, 1, -1, 1, -1},
	 .kmod = true},
	// net_dev_queue(skb): the SYN leaving (its socket in SYN_SENT).
	{.name = "connect-request",
	 .args = k_args,
	 .event = "net_dev_queue",
	 .nargs = 1,
	 .argmap = k_skb0,
	 .kmod = true},
	{.name = "connect-established",
	 .args = k_args,
	 .event = "inet_sock_set_state",
	 .nargs = 3,
	 .argmap = k_sk0,
	 .kmod = true},
	// tcp_receive_reset(sk), before tcp_reset() closes the socket.
	{.name = "connect-refused",
	 .args = k_args,
	 .event = "tcp_receive_reset",
	 .nargs = 1,
	 .argmap = k_sk0,
	 .kmod = true},
	// net_dev_queue(skb): every packet handed to a device.
	{.name = "send",
	 .args = k_args,
	 .event = "net_dev_queue",
	 .nargs = 1,
	 .argmap = k_skb0,
	 .kmod = true},
	// tcp_probe(sk, skb): segments of established connections.
	{.name = "receive",
	 .args = k_args,
	 .event = "tcp_probe",
	 .nargs = 2,
	 .argmap = {1, 0, 1, 0, 1, -1},
	 .kmod = true},
	// inet_sock_set_state(sk, oldstate, newstate): args[5] = oldstate;
	// arg2 (args[2] is void) = newstate, for tcpsinfo_t's tcps_state.
	{.name = "state-change",
	 .args = {{{0, "void", "void"},
		   {1, "struct sock *", "csinfo_t *"},
		   {2, "void", "void"},
		   {3, "struct tcp_sock *", "tcpsinfo_t *"},
		   {4, "void", "void"},
		   {5, "int", "tcplsinfo_t *"}}},
	 .event = "inet_sock_set_state",
	 .nargs = 3,
	 .argmap = {-1, 0, 2, 0, -1, 1},
	 .kmod = true},
};
static_assert(std::size(k_filters) == std::size(k_probes));

constexpr dt::sdk::tracepoint_provider k_tcp = {"tcp", "vmlinux", k_probes};

using ops = dt::sdk::tracepoint_ops<k_tcp, net::net_kernel>;

std::optional<net::program> make_filter(net::kernel_layout &k, size_t row, std::string &why)
{
	switch (k_filters[row].k) {
	case key::none: break;
	case key::transition: return net::sock_transition_key(k, 0, 1, 2, why);
	case key::reset_no_sock: return net::no_sock_syn_key(k, 0, 1, why);
	case key::sock_state: return net::sock_state_key(k, 0, why);
	case key::l4_proto: return net::l4_proto_key(k, 0, why);
	case key::syn: return net::tcp_flags_key(k, 0, net::k_th_syn | net::k_th_ack, why);
	case key::sock_proto: return net::sock_proto_key(k, 0, why);
	}
	return std::nullopt;
}

int bpf_attach(void *st, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	return net::attach_filtered<k_tcp, ops>(st, probe, out, make_filter,
						[](size_t row) { return k_filters[row].value; });
}

// kmod engine: the kernel half, plugins/tcp/kernel (dtrace_tcp.ko): every
// row, with the same native arguments.
const dt_plugin_kmod_ops_t k_tcp_kmod_ops = dt::sdk::kernel_module("dtrace_tcp");

constexpr dt_plugin_bpf_ops_t k_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = bpf_attach,
};

// The Guide's "tcp Stability" (as illumos sdt.c gives its SDT providers).
const dt_plugin_ops_t k_tcp_ops =
	ops::plugin("TCP connections, segments and state changes", dt::sdk::k_sdt_stability,
		    DT_PRIV_USER, &k_tcp_kmod_ops, &k_bpf_ops);

} // namespace
} // namespace dt::plugin::tcp

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): the table's rows.
DT_PLUGIN_NOTE(0, "accept-established accept-refused connect-established connect-refused "
		  "connect-request receive send state-change");

DT_PLUGIN_DEFINE(dt::plugin::tcp::k_tcp_ops)
}
