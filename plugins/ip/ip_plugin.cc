// SPDX-License-Identifier: MIT
// The ip provider (dt_ip.so): IP packets sent and received (Dynamic
// Tracing Guide, "ip Provider"), a tracepoint-backed provider of two
// rows (dt::sdk::tracepoint_ops, dtrace/plugin.hpp) whose bpf hook adds
// a filter program (../common/net_filter.hpp: the IP version of the
// packet's header is 4 or 6, plugin.h ABI 1.6).
//
//   probe     raw tracepoint      what fires it
//   send      net_dev_queue       a packet handed to a device
//                                 (dev_queue_xmit: after netfilter, before
//                                 the queueing discipline)
//   receive   netif_receive_skb   a packet taken from a device by the
//                                 stack (before netfilter, after GRO)
//
// Every argument is the packet's struct sk_buff *, which lib/dtrace
// (net.d, ip.d) translates to the Guide's pktinfo_t, csinfo_t (skb->sk:
// the sending socket; none on receive), ipinfo_t, ifinfo_t (skb->dev),
// ipv4info_t and ipv6info_t.
//
// What Linux does not give: a GSO/TSO packet is one firing (the device
// or the software GSO splits it later); a packet the stack builds and
// receives without a device (none on Linux: loopback is a device) would
// not fire; on receive the header is read at skb->network_header, which
// GRO and loopback set before the tracepoint (a driver that passes
// packets with neither may leave it unset there: such packets are not
// seen). The kernel half (plugins/ip/kernel, the kmod engine) fires the
// same probes from the same tracepoints with the same arguments.
#include "net_filter.hpp"

#include <dtrace/plugin.hpp>

#include <array>

namespace dt::plugin::ip {
namespace {

using dt::sdk::table_arg;
using dt::sdk::tp_probe;

constexpr std::array<table_arg, 6> k_args = {{
	{0, "struct sk_buff *", "pktinfo_t *"},
	{1, "struct sk_buff *", "csinfo_t *"},
	{2, "struct sk_buff *", "ipinfo_t *"},
	{3, "struct sk_buff *", "ifinfo_t *"},
	{4, "struct sk_buff *", "ipv4info_t *"},
	{5, "struct sk_buff *", "ipv6info_t *"},
}};

constexpr tp_probe k_probes[] = {
	{.name = "receive",
	 .args = k_args,
	 .event = "netif_receive_skb",
	 .nargs = 1,
	 .argmap = {0, 0, 0, 0, 0, 0},
	 .kmod = true},
	{.name = "send",
	 .args = k_args,
	 .event = "net_dev_queue",
	 .nargs = 1,
	 .argmap = {0, 0, 0, 0, 0, 0},
	 .kmod = true},
};

constexpr dt::sdk::tracepoint_provider k_ip = {"ip", "vmlinux", k_probes};

using ops = dt::sdk::tracepoint_ops<k_ip, net::net_kernel>;

int bpf_attach(void *st, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	return net::attach_filtered<k_ip, ops>(
		st, probe, out,
		[](net::kernel_layout &k, size_t, std::string &why) {
			return net::ip_version_key(k, 0, why);
		},
		[](size_t) { return int64_t{4}; });
}

// kmod engine: the kernel half, plugins/ip/kernel (dtrace_ip.ko): both
// rows, with the same native arguments and filter.
const dt_plugin_kmod_ops_t k_ip_kmod_ops = dt::sdk::kernel_module("dtrace_ip");

constexpr dt_plugin_bpf_ops_t k_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = bpf_attach,
};

// The Guide's "ip Stability".
const dt_plugin_ops_t k_ip_ops =
	ops::plugin("IPv4 and IPv6 packets sent and received", dt::sdk::k_sdt_stability,
		    DT_PRIV_USER, &k_ip_kmod_ops, &k_bpf_ops);

} // namespace
} // namespace dt::plugin::ip

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): the table's rows.
DT_PLUGIN_NOTE(0, "receive send");

DT_PLUGIN_DEFINE(dt::plugin::ip::k_ip_ops)
}
