// SPDX-License-Identifier: MIT
//
// btf.cc - the minimal BTF the kernel wants with a program that passes
// callbacks (BPF_PSEUDO_FUNC): one void(void) FUNC_PROTO and one static
// FUNC per function start, and the func_info records naming them
// (translate.hpp translated::btf / func_info). Static linkage: the
// verifier checks each function in its caller's context, as without BTF.
#include "btf.hpp"

#include <linux/btf.h>

#include <cstring>
#include <string>

namespace dt::engines::bpf {

void build_btf(const std::vector<uint32_t> &starts, std::vector<uint8_t> &btf,
	       std::vector<struct bpf_func_info> &func_info)
{
	std::vector<uint32_t> types; // btf_type words
	std::string strs(1, '\0');
	// [1] void (void)
	types.insert(types.end(), {0, static_cast<uint32_t>(BTF_KIND_FUNC_PROTO) << 24, 0});
	func_info.clear();
	for (size_t i = 0; i < starts.size(); i++) {
		auto name_off = static_cast<uint32_t>(strs.size());
		strs += (i == 0 ? std::string("dt_main") : "dt_func" + std::to_string(i));
		strs.push_back('\0');
		// static linkage (vlen 0), type: the prototype
		types.insert(types.end(),
			     {name_off, static_cast<uint32_t>(BTF_KIND_FUNC) << 24, 1});
		func_info.push_back({starts[i], /* instructions */ static_cast<uint32_t>(i + 2)});
	}
	struct btf_header h {};
	h.magic = BTF_MAGIC;
	h.version = BTF_VERSION;
	h.hdr_len = sizeof(h);
	h.type_off = 0;
	h.type_len = static_cast<uint32_t>(types.size() * 4);
	h.str_off = h.type_len;
	h.str_len = static_cast<uint32_t>(strs.size());
	btf.resize(sizeof(h) + h.type_len + h.str_len);
	std::memcpy(btf.data(), &h, sizeof(h));
	std::memcpy(btf.data() + sizeof(h), types.data(), h.type_len);
	std::memcpy(btf.data() + sizeof(h) + h.type_len, strs.data(), h.str_len);
}

} // namespace dt::engines::bpf
