// SPDX-License-Identifier: MIT
//
// btf.hpp - BTF and func_info for a translated program's functions
// (needed by the kernel when the program passes callbacks; btf.cc).
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <vector>

namespace dt::engines::bpf {

// starts: instruction index of every function, ascending, starting at 0.
void build_btf(const std::vector<uint32_t> &starts, std::vector<uint8_t> &btf,
	       std::vector<struct bpf_func_info> &func_info);

} // namespace dt::engines::bpf
