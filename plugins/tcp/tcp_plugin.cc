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
//
// bpf engine (attach): the kernel's tcp and sock raw tracepoints, where
// one gives the probe (TP_PROTO from include/trace/events/tcp.h, sock.h;
// arg<i> = raw argument argmap[i], -1: 0):
//
//   state-change    inet_sock_set_state(sk, oldstate, newstate)
//                   arg1 = arg3 = sk, arg5 = oldstate (also fires for
//                   the other inet protocols that use it, e.g. SCTP)
//   connect-request the same, when newstate is TCP_SYN_SENT (2)
//   accept-refused  tcp_send_reset(sk, skb, reason) when sk is NULL (a
//                   reset for a segment no socket wanted)
//                   arg0 = skb, arg1 = arg3 = sk (NULL)
//   receive         tcp_probe(sk, skb): arg0 = skb, arg1 = arg3 = sk;
//                   segments of established connections only
// The IP and TCP headers (arg2, arg4) need the skb read: 0 for now;
// connect-request, built on a state transition, has no packet (arg0 0).
// accept-established, connect-established and connect-refused are a
// transition between two given states (two arguments) or need the
// socket's state read; send has no tracepoint. Those are -ENOTSUP, as is
// a probe whose tracepoint this kernel lacks (asked of its BTF:
// raw_tracepoints.hpp).
#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>

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

// How each probe of k_probes (same order) is attached by the bpf engine;
// a NULL target means it cannot be (`why` says what it needs).
struct bpf_source {
	const char *target;
	uint32_t nargs;		       // the raw tracepoint's TP_PROTO arity
	std::array<int32_t, 6> argmap; // arg0..arg5
	int32_t filter_arg = -1;       // -1: no filter (see plugin.h ABI 1.2)
	uint64_t filter_mask = 0;
	int64_t filter = 0;
	const char *why = nullptr;
};

constexpr int64_t k_tcp_syn_sent = 2; // include/net/tcp_states.h TCP_SYN_SENT

constexpr bpf_source k_bpf[] = {
	{nullptr, 0, {}, -1, 0, 0,
	 "the transition from TCP_SYN_RECV to TCP_ESTABLISHED (two arguments of "
	 "inet_sock_set_state), which the bpf engine's attach description cannot "
	 "express"},
	{"tcp_send_reset", 3, {1, 0, -1, 0, -1, -1}, 0, ~uint64_t{0}, 0},
	{"inet_sock_set_state", 3, {-1, 0, -1, 0, -1, -1}, 2, 0xffffffff, k_tcp_syn_sent},
	{nullptr, 0, {}, -1, 0, 0,
	 "the transition from TCP_SYN_SENT to TCP_ESTABLISHED (two arguments of "
	 "inet_sock_set_state), which the bpf engine's attach description cannot "
	 "express"},
	{nullptr, 0, {}, -1, 0, 0,
	 "the socket's state when a reset arrives (tcp_receive_reset), which the "
	 "bpf engine's attach description cannot express"},
	{nullptr, 0, {}, -1, 0, 0,
	 "a kprobe or BPF trampoline on ip_queue_xmit/ip6_xmit; the kernel has no "
	 "tracepoint for every transmitted segment"},
	{"tcp_probe", 2, {1, 0, -1, 0, -1, -1}},
	{"inet_sock_set_state", 3, {-1, 0, -1, 0, -1, 1}},
};
static_assert(std::size(k_bpf) == std::size(k_probes));

struct tcp_state {
	const dt_plugin_host_t *host;
	dt::plugin::raw_tracepoints tracepoints;
};

int bpf_attach(tcp_state &s, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	uint64_t i = probe->cookie;
	if (i >= std::size(k_probes) || std::strcmp(k_probes[i].name, probe->name) != 0)
		return -ENOENT;
	const bpf_source &b = k_bpf[i];
	if (b.target == nullptr) {
		s.host->log(s.host, DT_LOG_WARN, "tcp:::%s needs %s", probe->name, b.why);
		return -ENOTSUP;
	}
	std::optional<int> arity = s.tracepoints.arity(b.target);
	uint32_t nargs = arity ? static_cast<uint32_t>(*arity) : b.nargs;
	if ((arity && *arity < 0) || b.filter_arg >= static_cast<int32_t>(nargs)) {
		s.host->log(s.host, DT_LOG_WARN,
			    "tcp:::%s needs the %s tracepoint with %u arguments, which this "
			    "kernel does not have",
			    probe->name, b.target, b.nargs);
		return -ENOTSUP;
	}
	dt_bpf_attach_t a = dt::sdk::bpf_attach_desc(DT_BPF_ATTACH_RAW_TRACEPOINT, b.target);
	a.ctx = DT_BPF_CTX_RAW;
	a.nargs = nargs;
	for (int32_t &m : a.argmap)
		m = -1;
	for (size_t k = 0; k < b.argmap.size(); k++)
		if (b.argmap[k] < static_cast<int32_t>(nargs))
			a.argmap[k] = b.argmap[k];
	a.has_argmap = 1;
	if (b.filter_arg >= 0) {
		a.has_filter = 1;
		a.filter = b.filter;
		a.has_filter_arg = 1;
		a.filter_arg = b.filter_arg;
		a.filter_mask = b.filter_mask;
	}
	dt::sdk::give_attach(out, a);
	return 0;
}

int tcp_bpf_attach(void *state, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	return dt::sdk::guard(
		[&] { return bpf_attach(*static_cast<tcp_state *>(state), probe, out); });
}

int tcp_init(const dt_plugin_host_t *host, void **state)
{
	return dt::sdk::guard([&] {
		*state = new tcp_state{host, {}};
		return 0;
	});
}

void tcp_fini(void *state)
{
	delete static_cast<tcp_state *>(state);
}

const dt_plugin_bpf_ops_t k_tcp_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = tcp_bpf_attach,
};

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
	.init = tcp_init,
	.fini = tcp_fini,
	.probes = tcp_probes,
	.probe_args = tcp_probe_args,
	.kmod = nullptr,
	.bpf = &k_tcp_bpf_ops,
};

} // namespace
} // namespace dt::plugin::tcp

extern "C" {
DT_PLUGIN_DEFINE(dt::plugin::tcp::k_tcp_ops)
}
