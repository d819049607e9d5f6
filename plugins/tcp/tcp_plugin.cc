// SPDX-License-Identifier: MIT
// The tcp provider (dt_tcp.so): TCP connection and segment probes,
// described from a table. The kernel functions each probe will be built
// on (after Oracle dtrace-utils' dt_prov_tcp.c; the engines attach them
// later) give the probe-name mapping:
//
//   fbt tcp_init_transfer entry (passive)      -> tcp:vmlinux::accept-established
//   fbt tcp_v4_send_reset/tcp_v6_send_reset    -> tcp:vmlinux::accept-refused
//   fbt ip_queue_xmit/ip6_xmit (SYN_SENT)      -> tcp:vmlinux::connect-request
//   fbt tcp_finish_connect entry               -> tcp:vmlinux::connect-established
//   fbt tcp_reset entry (SYN_SENT)             -> tcp:vmlinux::connect-refused
//   fbt ip_queue_xmit/ip6_xmit/ip_send_unicast_reply/ip_build_and_send_pkt
//                                              -> tcp:vmlinux::send
//   fbt tcp_rcv_established/tcp_rcv_state_process
//                                              -> tcp:vmlinux::receive
//   tracepoint sock:inet_sock_set_state, fbt tcp_time_wait,
//   fbt inet_csk_clone_lock                    -> tcp:vmlinux::state-change
//
// Probes are listed (and so numbered) in the order of k_probes below:
// accept-*, connect-*, send, receive, state-change. The cookie is the
// probe's index in k_probes.
//
// Arguments are the Guide's (illumos sdt_subr.c sdt_args[]), with Linux
// native types: the packet's struct sk_buff *, its struct sock *, the IP
// header as raw bytes (IPv4 or IPv6: ipinfo_t's translator tells them
// apart), the struct tcp_sock * and the struct tcphdr *. state-change has
// no packet: args[0], args[2] and args[4] are void, and args[5] is the
// previous state (a TCP_* value) seen as tcplsinfo_t *.
#include <dtrace/plugin.hpp>

#include <array>

namespace dt::plugin::tcp {
namespace {

using dt::sdk::table_arg;
using dt::sdk::table_probe;

// The five arguments of every probe that sees a segment.
constexpr std::array<table_arg, 6> k_segment_args = {{
	{0, "struct sk_buff *", "pktinfo_t *"},
	{1, "struct sock *", "csinfo_t *"},
	{2, "__u8 *", "ipinfo_t *"},
	{3, "struct tcp_sock *", "tcpsinfo_t *"},
	{4, "struct tcphdr *", "tcpinfo_t *"},
	{0, nullptr, nullptr},
}};

constexpr table_probe k_probes[] = {
	{"accept-established", k_segment_args},
	{"accept-refused", k_segment_args},
	{"connect-request", k_segment_args},
	{"connect-established", k_segment_args},
	{"connect-refused", k_segment_args},
	{"send", k_segment_args},
	{"receive", k_segment_args},
	{"state-change",
	 {{{0, "void", "void"},
	   {1, "struct sock *", "csinfo_t *"},
	   {2, "void", "void"},
	   {3, "struct tcp_sock *", "tcpsinfo_t *"},
	   {4, "void", "void"},
	   {5, "int", "tcplsinfo_t *"}}}},
};

constexpr const char *k_provider = "tcp";
constexpr const char *k_module = "vmlinux";

// Eight constant entries: reporting them all is cheaper than reading
// the query, and the host filters them against it.
int tcp_probes(void *, const dt_probe_query_t *, dt_probe_cb cb, void *arg)
{
	return dt::sdk::guard(
		[&] { return dt::sdk::report_table(k_probes, k_provider, k_module, "", cb, arg); });
}

int tcp_probe_args(void *, const dt_probe_info_t *probe, dt_arg_cb cb, void *arg)
{
	return dt::sdk::guard(
		[&] { return dt::sdk::report_table_args(k_probes, probe, cb, arg); });
}

// The Guide's "tcp Stability" (as illumos sdt.c gives its SDT providers).
const dt_plugin_ops_t k_tcp_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = k_provider,
	.description = "TCP connections, segments and state changes",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA}},
	.priv = DT_PRIV_USER,
	.flags = 0,
	.init = nullptr,
	.fini = nullptr,
	.probes = tcp_probes,
	.probe_args = tcp_probe_args,
	.kmod = nullptr,
	.bpf = nullptr,
};

} // namespace
} // namespace dt::plugin::tcp

extern "C" {
DT_PLUGIN_DEFINE(dt::plugin::tcp::k_tcp_ops)
}
