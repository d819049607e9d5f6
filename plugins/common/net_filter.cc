// SPDX-License-Identifier: MIT
// The network providers' filter programs: see the header.
#include "net_filter.hpp"

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <cstring>

namespace dt::plugin::net {

kernel_layout::~kernel_layout()
{
	btf__free(btf_);
}

namespace {

// Member `name` of struct/union type id `id` of `b`, looking into
// anonymous members; its offset is added to *off.
bool find_member(const btf *b, uint32_t id, const std::string &name, uint32_t &off, uint32_t &type,
		 bool &bitfield)
{
	const btf_type *t = btf__type_by_id(b, id);
	while (t != nullptr && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(b, t->type);
	if (t == nullptr || !btf_is_composite(t))
		return false;
	const btf_member *m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(b, m->name_off);
		uint32_t bits = btf_member_bit_offset(t, i);
		if (mn != nullptr && name == mn) {
			off += bits / 8;
			type = m->type;
			bitfield = btf_member_bitfield_size(t, i) != 0 || bits % 8 != 0;
			return true;
		}
		if ((mn == nullptr || *mn == '\0')) {
			uint32_t sub = off + bits / 8;
			if (find_member(b, m->type, name, sub, type, bitfield)) {
				off = sub;
				return true;
			}
		}
	}
	return false;
}

} // namespace

std::optional<member> kernel_layout::find(const char *strct, const std::string &path)
{
	if (!tried_) {
		tried_ = true;
		btf *b = btf__load_vmlinux_btf();
		btf_ = libbpf_get_error(b) ? nullptr : b;
	}
	if (btf_ == nullptr)
		return std::nullopt;
	int id = btf__find_by_name_kind(btf_, strct, BTF_KIND_STRUCT);
	if (id < 0)
		return std::nullopt;
	uint32_t off = 0, type = static_cast<uint32_t>(id);
	bool bitfield = false;
	size_t from = 0;
	while (from <= path.size()) {
		size_t dot = path.find('.', from);
		std::string part = path.substr(from, dot == std::string::npos ? dot : dot - from);
		if (!find_member(btf_, type, part, off, type, bitfield) || bitfield)
			return std::nullopt;
		if (dot == std::string::npos)
			break;
		from = dot + 1;
	}
	long sz = btf__resolve_size(btf_, type);
	if (sz <= 0)
		return std::nullopt;
	return member{off, static_cast<uint32_t>(sz)};
}

bool program::give(dt_bpf_attach_t *out, int64_t value) const
{
	if (!DT_ABI_HAS(out, filter_steps))
		return false;
	out->has_filter = 1;
	out->filter = value;
	out->has_filter_arg = 0;
	out->filter_nsteps = n;
	std::memcpy(out->filter_steps, steps, sizeof(steps[0]) * n);
	return true;
}

namespace {

// acc = the value of member m at acc (a load of its size: 1, 2, 4, 8).
bool load_member(program &p, const std::optional<member> &m)
{
	if (!m || (m->size != 1 && m->size != 2 && m->size != 4 && m->size != 8))
		return false;
	p.add(DT_BPF_FOP_LOAD, static_cast<int32_t>(m->size), m->offset);
	return true;
}

// acc = skb->head + skb->network_header (or transport_header).
bool header_addr(kernel_layout &k, program &p, int32_t skb, const char *which, std::string &why)
{
	p.add(DT_BPF_FOP_ARG, skb);
	if (!load_member(p, k.find("sk_buff", "head"))) {
		why = "struct sk_buff's head";
		return false;
	}
	p.add(DT_BPF_FOP_PUSH);
	p.add(DT_BPF_FOP_ARG, skb);
	if (!load_member(p, k.find("sk_buff", which))) {
		why = std::string("struct sk_buff's ") + which;
		return false;
	}
	p.add(DT_BPF_FOP_ADD);
	return true;
}

std::optional<program> done(program &p, bool ok, std::string &why)
{
	if (!ok || !p.ok) {
		if (why.empty())
			why = "a longer filter than the bpf engine takes";
		return std::nullopt;
	}
	return p;
}

} // namespace

std::optional<program> ip_version_key(kernel_layout &k, int32_t skb, std::string &why)
{
	program p;
	bool ok = header_addr(k, p, skb, "network_header", why);
	p.add(DT_BPF_FOP_LOAD, 1, 0);
	p.add(DT_BPF_FOP_RSH, 0, 4);
	p.add(DT_BPF_FOP_AND, 0, 0xd);
	return done(p, ok, why);
}

namespace {

// acc = the IP protocol of skb's header; leaves one value on the stack.
bool l4_proto(kernel_layout &k, program &p, int32_t skb, std::string &why)
{
	bool ok = header_addr(k, p, skb, "network_header", why);
	p.add(DT_BPF_FOP_PUSH);	      // [H]
	p.add(DT_BPF_FOP_LOAD, 1, 0); // version << 4 | IHL
	p.add(DT_BPF_FOP_RSH, 0, 4);  //
	p.add(DT_BPF_FOP_JNE, 3, 4);  // not IPv4: to the IPv6 test
	p.add(DT_BPF_FOP_PEEK);	      //
	p.add(DT_BPF_FOP_LOAD, 1, 9); // iphdr.protocol
	p.add(DT_BPF_FOP_JNE, 4, -1); // (always) to the end
	p.add(DT_BPF_FOP_JEQ, 1, 6);  // IPv6: read its next header
	p.add(DT_BPF_FOP_DROP);	      // neither
	p.add(DT_BPF_FOP_PEEK);	      //
	p.add(DT_BPF_FOP_LOAD, 1, 6); // ipv6hdr.nexthdr
	return ok;
}

} // namespace

std::optional<program> l4_proto_key(kernel_layout &k, int32_t skb, std::string &why)
{
	program p;
	bool ok = l4_proto(k, p, skb, why);
	return done(p, ok, why);
}

std::optional<program> tcp_flags_key(kernel_layout &k, int32_t skb, int64_t mask, std::string &why)
{
	program p;
	bool ok = l4_proto(k, p, skb, why);
	p.add(DT_BPF_FOP_LSH, 0, 8);
	p.add(DT_BPF_FOP_PUSH);
	ok = ok && header_addr(k, p, skb, "transport_header", why);
	p.add(DT_BPF_FOP_LOAD, 1, 13); // the flags byte of struct tcphdr
	p.add(DT_BPF_FOP_AND, 0, mask);
	p.add(DT_BPF_FOP_OR);
	return done(p, ok, why);
}

std::optional<program> sock_transition_key(kernel_layout &k, int32_t sk, int32_t oldstate,
					   int32_t newstate, std::string &why)
{
	program p;
	p.add(DT_BPF_FOP_ARG, sk);
	bool ok = load_member(p, k.find("sock", "sk_protocol"));
	if (!ok)
		why = "struct sock's sk_protocol";
	p.add(DT_BPF_FOP_AND, 0, 0xff);
	p.add(DT_BPF_FOP_LSH, 0, 8);
	p.add(DT_BPF_FOP_PUSH);
	p.add(DT_BPF_FOP_ARG, oldstate);
	p.add(DT_BPF_FOP_AND, 0, 0xf);
	p.add(DT_BPF_FOP_LSH, 0, 4);
	p.add(DT_BPF_FOP_OR);
	p.add(DT_BPF_FOP_PUSH);
	p.add(DT_BPF_FOP_ARG, newstate);
	p.add(DT_BPF_FOP_AND, 0, 0xf);
	p.add(DT_BPF_FOP_OR);
	return done(p, ok, why);
}

std::optional<program> sock_proto_key(kernel_layout &k, int32_t sk, std::string &why)
{
	program p;
	p.add(DT_BPF_FOP_ARG, sk);
	bool ok = load_member(p, k.find("sock", "sk_protocol"));
	if (!ok)
		why = "struct sock's sk_protocol";
	return done(p, ok, why);
}

std::optional<program> sock_state_key(kernel_layout &k, int32_t sk, std::string &why)
{
	program p;
	p.add(DT_BPF_FOP_ARG, sk);
	bool ok = load_member(p, k.find("sock", "__sk_common.skc_state"));
	if (!ok)
		why = "struct sock's skc_state";
	return done(p, ok, why);
}

std::optional<program> no_sock_syn_key(kernel_layout &k, int32_t sk, int32_t skb, std::string &why)
{
	program p;
	p.add(DT_BPF_FOP_ARG, sk);
	p.add(DT_BPF_FOP_JEQ, 1, 0);
	p.add(DT_BPF_FOP_DROP); // a socket's own reset
	bool ok = header_addr(k, p, skb, "transport_header", why);
	p.add(DT_BPF_FOP_LOAD, 1, 13);	// the flags byte of struct tcphdr
	p.add(DT_BPF_FOP_AND, 0, 0x16); // ACK | RST | SYN
	return done(p, ok, why);
}

} // namespace dt::plugin::net
