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
// explained, or the errno).
[[nodiscard]] unique_fd load_program(enum bpf_prog_type type, const std::string &name,
				     const program &p, const translated &t);

} // namespace dt::engines::bpf
