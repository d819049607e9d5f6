// SPDX-License-Identifier: MIT
// Filter programs (plugin.h ABI 1.6, dt_bpf_filter_step_t) for the
// network providers (tcp, ip, udp), which share the kernel's net and sock
// tracepoints and tell their packets apart by what the struct sk_buff or
// struct sock holds: the IP version and protocol in the packet's header,
// the socket's protocol and state.
//
// The programs need member offsets of struct sk_buff and struct sock,
// asked of the running kernel's BTF (kernel_layout); without BTF, or with
// a member missing, a program cannot be built and the probe is refused
// with the reason.
//
//   ip_version_key(skb)    (IP version & 0xd): 4 for IPv4 and IPv6
//   l4_proto_key(skb)      the IP protocol (IPv4) or next header (IPv6)
//   tcp_flags_key(skb, mask)
//                          l4_proto_key << 8 | (the TCP flags & mask)
//   sock_transition_key(sk, old, new)
//                          sk_protocol << 8 | (old & 15) << 4 | (new & 15)
//   sock_proto_key(sk)     sk_protocol
//   sock_state_key(sk)     skc_state
//   no_sock_syn_key(sk, skb)
//                          the TCP flags (SYN, RST, ACK) of skb when sk is
//                          NULL: TH_SYN for a connection request no socket
//                          wanted
//
// The IP header is skb->head + skb->network_header, the TCP header
// skb->head + skb->transport_header (set on both paths by the time the
// tracepoints the providers use fire: net_dev_queue, netif_receive_skb
// after GRO or on loopback, tcp_probe, tcp_send_reset).
#pragma once

#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

#include <cstdint>
#include <optional>
#include <string>

struct btf;

namespace dt::plugin::net {

// A member of a kernel struct: byte offset and size.
struct member {
	uint32_t offset;
	uint32_t size;
};

class kernel_layout {
public:
	kernel_layout() = default;
	~kernel_layout();
	kernel_layout(const kernel_layout &) = delete;
	kernel_layout &operator=(const kernel_layout &) = delete;

	// `path` is dotted through nested and anonymous members
	// ("__sk_common.skc_state"); nullopt: no BTF, no such member, or a
	// bit field.
	[[nodiscard]] std::optional<member> find(const char *strct, const std::string &path);

private:
	bool tried_ = false;
	btf *btf_ = nullptr;
};

// A filter program under construction.
struct program {
	uint32_t n = 0;
	dt_bpf_filter_step_t steps[DT_BPF_FILTER_STEPS] = {};
	bool ok = true;
	void add(int32_t op, int32_t a = 0, int64_t imm = 0)
	{
		if (n >= DT_BPF_FILTER_STEPS) {
			ok = false;
			return;
		}
		steps[n++] = {op, a, imm};
	}
	// Give it to `out` with the value the probe fires on; false when the
	// host is too old to take it (the probe must then be refused).
	[[nodiscard]] bool give(dt_bpf_attach_t *out, int64_t value) const;
};

// What the network providers ask of the running kernel: its raw
// tracepoints' arity (for dt::sdk::tracepoint_ops) and struct layouts.
struct net_kernel {
	raw_tracepoints tps;
	kernel_layout layout;
	[[nodiscard]] std::optional<int> arity(const std::string &event)
	{
		return tps.arity(event);
	}
};

// The bpf hook of a network provider: tracepoint_ops<P, net_kernel>'s,
// then the filter program `make(layout, row index, why)` returns for the
// row (nullopt and an empty `why`: the row has none), firing on
// `value(row index)`.
template <const dt::sdk::tracepoint_provider &P, typename Ops, typename Make, typename Value>
int attach_filtered(void *st, const dt_probe_info_t *probe, dt_bpf_attach_t *out, Make make,
		    Value value)
{
	return dt::sdk::guard([&] {
		int rc = Ops::bpf_attach(st, probe, out);
		if (rc != 0)
			return rc;
		auto *s = static_cast<typename Ops::state *>(st);
		const dt::sdk::tp_probe *row = dt::sdk::detail::row_of(P.probes, probe);
		auto idx = static_cast<size_t>(row - P.probes.data());
		std::string why;
		std::optional<program> prog = make(s->kernel.layout, idx, why);
		if (!prog) {
			if (why.empty())
				return 0;
			s->host->log(s->host, DT_LOG_WARN,
				     "%s:::%s needs %s, which this kernel's BTF does not describe",
				     P.provider, row->name, why.c_str());
			return -ENOTSUP;
		}
		if (!prog->give(out, value(idx))) {
			s->host->log(s->host, DT_LOG_WARN,
				     "%s:::%s needs a host that runs filter programs (plugin ABI "
				     "1.6)",
				     P.provider, row->name);
			return -ENOTSUP;
		}
		return 0;
	});
}

// Each returns an empty optional (and `why` says which member is missing)
// when the kernel's layout cannot be read.
[[nodiscard]] std::optional<program> ip_version_key(kernel_layout &k, int32_t skb,
						    std::string &why);
[[nodiscard]] std::optional<program> l4_proto_key(kernel_layout &k, int32_t skb, std::string &why);
[[nodiscard]] std::optional<program> tcp_flags_key(kernel_layout &k, int32_t skb, int64_t mask,
						   std::string &why);
[[nodiscard]] std::optional<program> sock_transition_key(kernel_layout &k, int32_t sk,
							 int32_t oldstate, int32_t newstate,
							 std::string &why);
[[nodiscard]] std::optional<program> sock_proto_key(kernel_layout &k, int32_t sk, std::string &why);
[[nodiscard]] std::optional<program> sock_state_key(kernel_layout &k, int32_t sk, std::string &why);
[[nodiscard]] std::optional<program> no_sock_syn_key(kernel_layout &k, int32_t sk, int32_t skb,
						     std::string &why);

// IP protocol numbers and TCP values the providers filter on.
constexpr int64_t k_ipproto_tcp = 6;
constexpr int64_t k_ipproto_udp = 17;
constexpr int64_t k_th_syn = 0x02;
constexpr int64_t k_th_ack = 0x10;

} // namespace dt::plugin::net
