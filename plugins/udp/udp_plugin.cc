// SPDX-License-Identifier: MIT
// The udp provider (dt_udp.so): UDP datagrams sent and received (Dynamic
// Tracing Guide, "udp Provider"), a tracepoint-backed provider of two
// rows (dt::sdk::tracepoint_ops, dtrace/plugin.hpp) whose bpf hook adds
// a filter program (../common/net_filter.hpp: the IPv4 protocol or IPv6
// next header of the packet is UDP, plugin.h ABI 1.6).
//
//   probe     raw tracepoint      what fires it
//   send      net_dev_queue       a UDP packet handed to a device
//   receive   netif_receive_skb   a UDP packet taken from a device
//
// Linux has no tracepoint in udp_sendmsg() or udp_rcv() (nor any with
// the socket and the packet on receive), so the provider sees datagrams
// where they meet a device: every argument is the packet's
// struct sk_buff *, which lib/dtrace (net.d, udp.d) translates to the
// Guide's pktinfo_t, csinfo_t (skb->sk, the sending socket; none on
// receive), ipinfo_t, udpsinfo_t (the socket's view, from the headers)
// and udpinfo_t. A datagram sent with UDP GSO is one firing; an IPv6
// datagram behind extension headers, or an IPv4 fragment after the
// first, is not seen. The kernel half (plugins/udp/kernel, the kmod
// engine) fires the same probes from the same tracepoints and filter.
#include "net_filter.hpp"

#include <dtrace/plugin.hpp>

#include <array>

namespace dt::plugin::udp {
namespace {

using dt::sdk::table_arg;
using dt::sdk::tp_probe;

constexpr std::array<table_arg, 6> k_args = {{
	{0, "struct sk_buff *", "pktinfo_t *"},
	{1, "struct sk_buff *", "csinfo_t *"},
	{2, "struct sk_buff *", "ipinfo_t *"},
	{3, "struct sk_buff *", "udpsinfo_t *"},
	{4, "struct sk_buff *", "udpinfo_t *"},
	{0, nullptr, nullptr},
}};

constexpr tp_probe k_probes[] = {
	{.name = "receive",
	 .args = k_args,
	 .event = "netif_receive_skb",
	 .nargs = 1,
	 .argmap = {0, 0, 0, 0, 0, -1},
	 .kmod = true},
	{.name = "send",
	 .args = k_args,
	 .event = "net_dev_queue",
	 .nargs = 1,
	 .argmap = {0, 0, 0, 0, 0, -1},
	 .kmod = true},
};

constexpr dt::sdk::tracepoint_provider k_udp = {"udp", "vmlinux", k_probes};

using ops = dt::sdk::tracepoint_ops<k_udp, net::net_kernel>;

int bpf_attach(void *st, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	return net::attach_filtered<k_udp, ops>(
		st, probe, out,
		[](net::kernel_layout &k, size_t, std::string &why) {
			return net::l4_proto_key(k, 0, why);
		},
		[](size_t) { return net::k_ipproto_udp; });
}

// kmod engine: the kernel half, plugins/udp/kernel (dtrace_udp.ko): both
// rows, with the same native arguments and filter.
const dt_plugin_kmod_ops_t k_udp_kmod_ops = dt::sdk::kernel_module("dtrace_udp");

constexpr dt_plugin_bpf_ops_t k_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = bpf_attach,
};

// The Guide's "udp Stability".
const dt_plugin_ops_t k_udp_ops =
	ops::plugin("UDP datagrams sent and received", dt::sdk::k_sdt_stability, DT_PRIV_USER,
		    &k_udp_kmod_ops, &k_bpf_ops);

} // namespace
} // namespace dt::plugin::udp

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): the table's rows.
DT_PLUGIN_NOTE(0, "receive send");

DT_PLUGIN_DEFINE(dt::plugin::udp::k_udp_ops)
}
