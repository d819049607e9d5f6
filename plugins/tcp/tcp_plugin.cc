// SPDX-License-Identifier: MIT
// The tcp provider (dt_tcp.so): TCP connection and segment probes, a
// tracepoint-backed provider made of one table, k_probes below: each row
// is the probe-name mapping (raw tracepoint -> tcp:vmlinux::<name>), its
// argument map and filter for the bpf engine, and its typed arguments.
// The rows' order is the probes' (and so their numbering): accept-*,
// connect-*, send, receive, state-change; the cookie is the row's index.
// dt::sdk::tracepoint_ops (dtrace/plugin.hpp) makes the ops of the table.
//
// Arguments are the Guide's (illumos sdt_subr.c sdt_args[]), with Linux
// native types: the packet's struct sk_buff *, its struct sock *, the IP
// header as raw bytes (IPv4 or IPv6: ipinfo_t's translator tells them
// apart), the struct tcp_sock * and the struct tcphdr *. state-change has
// no packet: args[0], args[2] and args[4] are void, and args[5] is the
// previous state (a TCP_* value) seen as tcplsinfo_t *.
//
// The events are the kernel's tcp and sock raw tracepoints, where one
// gives the probe (TP_PROTO from include/trace/events/tcp.h, sock.h). The
// IP and TCP headers (arg2, arg4) need the skb read: 0 for now. The rows
// without an event (accept-established, connect-established and
// connect-refused are a transition between two given states, or need the
// socket's state read; send has no tracepoint) are refused by the bpf
// hook with -ENOTSUP, saying what they need, as is a probe whose
// tracepoint this kernel lacks (asked of its BTF: raw_tracepoints.hpp).
// There is no kernel half yet. (Oracle dtrace-utils' dt_prov_tcp.c builds
// them on fbt probes: tcp_init_transfer, tcp_v4/v6_send_reset,
// ip_queue_xmit/ip6_xmit, tcp_finish_connect, tcp_reset, tcp_rcv_*.)
#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

#include <array>

namespace dt::plugin::tcp {
namespace {

using dt::sdk::table_arg;
using dt::sdk::tp_probe;

// The five arguments of every probe that sees a segment.
constexpr std::array<table_arg, 6> k_segment_args = {{
	{0, "struct sk_buff *", "pktinfo_t *"},
	{1, "struct sock *", "csinfo_t *"},
	{2, "__u8 *", "ipinfo_t *"},
	{3, "struct tcp_sock *", "tcpsinfo_t *"},
	{4, "struct tcphdr *", "tcpinfo_t *"},
	{0, nullptr, nullptr},
}};

constexpr int64_t k_tcp_syn_sent = 2; // include/net/tcp_states.h TCP_SYN_SENT

constexpr tp_probe k_probes[] = {
	{.name = "accept-established",
	 .args = k_segment_args,
	 .event = nullptr,
	 .why = "the transition from TCP_SYN_RECV to TCP_ESTABLISHED (two arguments of "
		"inet_sock_set_state), which the bpf engine's attach description cannot "
		"express"},
	// tcp_send_reset(sk, skb, reason) when sk is NULL (a reset for a
	// segment no socket wanted): arg0 = skb, arg1 = arg3 = sk (NULL).
	{.name = "accept-refused",
	 .args = k_segment_args,
	 .event = "tcp_send_reset",
	 .nargs = 3,
	 .argmap = {1, 0, -1, 0, -1, -1},
	 .filter = {.arg = 0, .mask = ~uint64_t{0}, .value = 0}},
	// inet_sock_set_state(sk, oldstate, newstate), newstate TCP_SYN_SENT:
	// arg1 = arg3 = sk; a state transition has no packet (arg0 0).
	{.name = "connect-request",
	 .args = k_segment_args,
	 .event = "inet_sock_set_state",
	 .nargs = 3,
	 .argmap = {-1, 0, -1, 0, -1, -1},
	 .filter = {.arg = 2, .mask = 0xffffffff, .value = k_tcp_syn_sent}},
	{.name = "connect-established",
	 .args = k_segment_args,
	 .event = nullptr,
	 .why = "the transition from TCP_SYN_SENT to TCP_ESTABLISHED (two arguments of "
		"inet_sock_set_state), which the bpf engine's attach description cannot "
		"express"},
	{.name = "connect-refused",
	 .args = k_segment_args,
	 .event = nullptr,
	 .why = "the socket's state when a reset arrives (tcp_receive_reset), which the "
		"bpf engine's attach description cannot express"},
	{.name = "send",
	 .args = k_segment_args,
	 .event = nullptr,
	 .why = "a kprobe or BPF trampoline on ip_queue_xmit/ip6_xmit; the kernel has no "
		"tracepoint for every transmitted segment"},
	// tcp_probe(sk, skb): arg0 = skb, arg1 = arg3 = sk; segments of
	// established connections only.
	{.name = "receive",
	 .args = k_segment_args,
	 .event = "tcp_probe",
	 .nargs = 2,
	 .argmap = {1, 0, -1, 0, -1, -1}},
	// inet_sock_set_state(sk, oldstate, newstate): arg1 = arg3 = sk,
	// arg5 = oldstate (also fires for the other inet protocols that use
	// it, e.g. SCTP).
	{.name = "state-change",
	 .args = {{{0, "void", "void"},
		   {1, "struct sock *", "csinfo_t *"},
		   {2, "void", "void"},
		   {3, "struct tcp_sock *", "tcpsinfo_t *"},
		   {4, "void", "void"},
		   {5, "int", "tcplsinfo_t *"}}},
	 .event = "inet_sock_set_state",
	 .nargs = 3,
	 .argmap = {-1, 0, -1, 0, -1, 1}},
};

constexpr dt::sdk::tracepoint_provider k_tcp = {"tcp", "vmlinux", k_probes};

using ops = dt::sdk::tracepoint_ops<k_tcp, dt::plugin::raw_tracepoints>;

// The Guide's "tcp Stability" (as illumos sdt.c gives its SDT providers).
const dt_plugin_ops_t k_tcp_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = "tcp",
	.description = "TCP connections, segments and state changes",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA}},
	.priv = DT_PRIV_USER,
	.flags = 0,
	.init = ops::init,
	.fini = ops::fini,
	.probes = ops::probes,
	.probe_args = ops::probe_args,
	.kmod = nullptr,
	.bpf = &ops::bpf_ops,
	.fires = ops::fires,
};

} // namespace
} // namespace dt::plugin::tcp

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): the table's rows.
DT_PLUGIN_NOTE(0, "accept-established accept-refused connect-established connect-refused "
	       "connect-request receive send state-change");

DT_PLUGIN_DEFINE(dt::plugin::tcp::k_tcp_ops)
}
