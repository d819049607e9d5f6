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
#include <dtrace/plugin.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <iterator>

namespace dt::plugin::tcp {
namespace {

struct arg_def {
	int32_t mapping;     // native argument args[n] is built from
	const char *native;  // nullptr ends the list
	const char *xlate;   // nullptr: args[n] has the native type
};

struct probe_def {
	const char *name;
	std::array<arg_def, 6> args;
};

// The five arguments of every probe that sees a segment.
constexpr std::array<arg_def, 6> k_segment_args = {{
	{0, "struct sk_buff *", "pktinfo_t *"},
	{1, "struct sock *", "csinfo_t *"},
	{2, "__u8 *", "ipinfo_t *"},
	{3, "struct tcp_sock *", "tcpsinfo_t *"},
	{4, "struct tcphdr *", "tcpinfo_t *"},
	{0, nullptr, nullptr},
}};

constexpr probe_def k_probes[] = {
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

// The table entry for a probe we reported: by cookie, checked by name.
const probe_def *find_probe(const dt_probe_info_t *probe)
{
	if (probe->cookie >= std::size(k_probes))
		return nullptr;
	const probe_def &def = k_probes[probe->cookie];
	return std::strcmp(def.name, probe->name) == 0 ? &def : nullptr;
}

// Eight constant entries: reporting them all is cheaper than reading the
// query, and the host filters them against it.
int tcp_probes(void *, const dt_probe_query_t *, dt_probe_cb cb, void *arg)
{
	try {
		for (uint64_t i = 0; i < std::size(k_probes); i++) {
			dt_probe_info_t p = {sizeof(p), k_provider, k_module, "",
					     k_probes[i].name, i};
			if (cb(arg, &p))
				break;
		}
		return 0;
	} catch (...) {
		return -EIO;
	}
}

int tcp_probe_args(void *, const dt_probe_info_t *probe, dt_arg_cb cb, void *arg)
{
	try {
		const probe_def *def = find_probe(probe);
		if (def == nullptr)
			return -ENOENT;
		int32_t ndx = 0;
		for (const arg_def &a : def->args) {
			if (a.native == nullptr)
				break;
			dt_arg_desc_t d = {sizeof(d), ndx++, a.mapping, a.native,
					   a.xlate, nullptr};
			if (cb(arg, &d))
				break;
		}
		return 0;
	} catch (...) {
		return -EIO;
	}
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
