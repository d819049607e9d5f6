// SPDX-License-Identifier: MIT
//
// load.hpp - loading one translated program into the kernel, and
// what the user sees when the verifier refuses it:
//
//   load_program   bpf_prog_load(type, insns, "Dual MIT/GPL"): the BPF
//                  library calls GPL-only helpers, and the programs are
//                  ours (MIT) as much as the kernel's. On a verifier
//                  error, loaded again with a log; the user sees
//                  explain_verifier()'s message (clause, line), never the log.
#pragma once

#include "fd.hpp"
#include "translate.hpp"

#include <dtrace/program.hpp>

#include <linux/bpf.h>

#include <string>

namespace dt::engines::bpf {

inline constexpr const char *k_license = "Dual MIT/GPL";

// Throws privilege_error (EPERM) or engine_error (the verifier's message
// explained, or the errno). BPF_PROG_TYPE_TRACING programs are loaded for
// `attach_type` at the kernel function `attach_btf_id` (vmlinux BTF).
[[nodiscard]] unique_fd load_program(
	enum bpf_prog_type type, const std::string &name, const program &p, const translated &t,
	enum bpf_attach_type attach_type = static_cast<enum bpf_attach_type>(0),
	uint32_t attach_btf_id = 0);

} // namespace dt::engines::bpf
