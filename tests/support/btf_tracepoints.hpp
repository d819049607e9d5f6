// SPDX-License-Identifier: MIT
// Test support: the running kernel's raw tracepoint prototypes, from its
// BTF (/sys/kernel/btf/vmlinux). For each tracepoint <event> the kernel
// defines `typedef void (*btf_trace_<event>)(void *__data, TP_PROTO...)`;
// the parameters after __data are the raw tracepoint's u64 arguments, in
// order. Tests that include this link libbpf (PkgConfig::LIBBPF).
#pragma once

#include <bpf/btf.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dt::test {

// One parameter of a tracepoint: its C type, rendered the way the
// providers write native types ("struct task_struct *", "int", "u64"),
// and its name ("" when BTF has none).
struct tp_param {
	std::string type;
	std::string name;
};

class kernel_btf {
public:
	kernel_btf() : btf_(btf__load_vmlinux_btf(), btf__free) {}
	// False when this kernel has no BTF (then every lookup is nullopt).
	[[nodiscard]] bool loaded() const { return btf_ != nullptr; }

	// The TP_PROTO parameters of raw tracepoint `event`, or nullopt if
	// the kernel has no such tracepoint.
	[[nodiscard]] std::optional<std::vector<tp_param>> raw_tracepoint(
		const std::string &event) const
	{
		if (!btf_)
			return std::nullopt;
		const btf *b = btf_.get();
		int id =
			btf__find_by_name_kind(b, ("btf_trace_" + event).c_str(), BTF_KIND_TYPEDEF);
		if (id < 0)
			return std::nullopt;
		const btf_type *t = btf__type_by_id(b, btf__type_by_id(b, id)->type); // pointer
		if (t == nullptr || !btf_is_ptr(t))
			return std::nullopt;
		t = btf__type_by_id(b, t->type); // the function prototype
		if (t == nullptr || !btf_is_func_proto(t))
			return std::nullopt;
		std::vector<tp_param> out;
		const btf_param *p = btf_params(t);
		for (int i = 1; i < btf_vlen(t); i++) // 0 is void *__data
			out.push_back(
				{type_name(p[i].type), btf__name_by_offset(b, p[i].name_off)});
		return out;
	}

private:
	// "struct task_struct *", "int", "const char *" -> "char *" (qualifiers
	// dropped: the providers' native types do not carry them).
	[[nodiscard]] std::string type_name(uint32_t id) const
	{
		const btf *b = btf_.get();
		int stars = 0;
		const btf_type *t = btf__type_by_id(b, id);
		while (t != nullptr && (btf_is_ptr(t) || btf_is_const(t) || btf_is_volatile(t) ||
					btf_is_restrict(t))) {
			if (btf_is_ptr(t))
				stars++;
			t = btf__type_by_id(b, t->type);
		}
		std::string s;
		if (t == nullptr || id == 0)
			s = "void";
		else if (btf_is_struct(t))
			s = std::string("struct ") + btf__name_by_offset(b, t->name_off);
		else if (btf_is_union(t))
			s = std::string("union ") + btf__name_by_offset(b, t->name_off);
		else if (btf_is_enum(t) || btf_is_enum64(t))
			s = std::string("enum ") + btf__name_by_offset(b, t->name_off);
		else if (t->name_off == 0)
			s = "void";
		else
			s = btf__name_by_offset(b, t->name_off);
		if (stars > 0)
			s += " " + std::string(stars, '*');
		return s;
	}

	std::unique_ptr<btf, void (*)(btf *)> btf_;
};

} // namespace dt::test
