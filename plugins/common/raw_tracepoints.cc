// SPDX-License-Identifier: MIT
// The running kernel's raw tracepoints, from its BTF: see the header.
#include "raw_tracepoints.hpp"

#include <bpf/btf.h>
#include <bpf/libbpf.h>

namespace dt::plugin {

raw_tracepoints::raw_tracepoints() = default;

raw_tracepoints::~raw_tracepoints()
{
	btf__free(btf_);
}

std::optional<int> raw_tracepoints::arity(const std::string &event)
{
	if (!tried_) {
		tried_ = true;
		btf *b = btf__load_vmlinux_btf();
		btf_ = libbpf_get_error(b) ? nullptr : b;
	}
	if (btf_ == nullptr)
		return std::nullopt;
	int id = btf__find_by_name_kind(btf_, ("btf_trace_" + event).c_str(), BTF_KIND_TYPEDEF);
	if (id < 0)
		return -1;
	const btf_type *t = btf__type_by_id(btf_, btf__type_by_id(btf_, id)->type);
	if (t == nullptr || !btf_is_ptr(t))
		return std::nullopt;
	t = btf__type_by_id(btf_, t->type);
	if (t == nullptr || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return std::nullopt;
	return btf_vlen(t) - 1; // the first parameter is the probe's void *__data
}

} // namespace dt::plugin
