// SPDX-License-Identifier: MIT
// How fbt attaches on the bpf engine, chosen once per session by asking
// the kernel what it can do (feature detection, never a version number):
//
//   fentry   BPF trampolines: a BPF_PROG_TYPE_TRACING program of
//            BPF_TRACE_FENTRY / BPF_TRACE_FEXIT at the function's BTF id.
//            Detected by loading and attaching an empty fentry program at
//            bpf_fentry_test1 (the kernel's own test target; else the
//            function asked for) and detaching it at once.
//   kprobe   a kprobe / kretprobe per function through the perf kprobe
//            PMU (or <tracefs>/kprobe_events): CONFIG_KPROBES. A glob of
//            more than DTRACE_BPF_TRAMPOLINE_MAX (8) of them the engine
//            attaches as one kprobe_multi link per kind where the kernel
//            has it (CONFIG_FPROBE; core/engine/bpf/attach.hpp).
//   none     neither: fbt probes are refused with a message.
//
// fentry gives the arguments and fexit the return value from the
// trampoline's u64 array (and, where the kernel's trampolines take them,
// more than six arguments); each function is one program load. Functions
// that fentry cannot take (no BTF, a module's, struct or float values)
// use kprobes when the kernel has them.
//
// DTRACE_FBT_ATTACH=fentry|kprobe overrides the choice (tests, benches);
// a method the kernel lacks is then refused.
#pragma once

#include "btf_args.hpp"

#include <dtrace/plugin.h>

#include <string>

namespace dt::plugin::fbt {

enum class attach_method { none, kprobe, fentry };

[[nodiscard]] const char *method_name(attach_method m);

// Does this kernel have kprobes (the perf kprobe PMU or kprobe_events)?
[[nodiscard]] bool have_kprobes(const dt_plugin_host_t *host);

// Can a fentry program be loaded and attached at `func` (a vmlinux
// function with BTF)? `why` says what failed.
[[nodiscard]] bool fentry_works(btf_cache &btf, const std::string &func, std::string &why);

// The session's method, chosen at the first attach; `func` is the
// function asked for (the fallback target of the fentry check).
[[nodiscard]] attach_method choose_method(const dt_plugin_host_t *host, btf_cache &btf,
					  const std::string &func);

} // namespace dt::plugin::fbt
