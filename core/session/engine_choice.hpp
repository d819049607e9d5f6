// SPDX-License-Identifier: MIT
//
// engine_choice.hpp - which engine runs a program (docs/architecture.md;
// internal to core/session):
//
//   -x engine=user    the in-process engine (BEGIN, END, ERROR, tick-N)
//   -x engine=bpf     the bpf engine (needs bpf(): root)
//   -x engine=kmod    the kmod engine (dtrace.ko through /dev/dtrace; loads
//                     the modules it needs: root)
//   (default: auto)   the user engine when every probe the program matches
//                     is one it runs (its provider's description says
//                     DT_ENGINE_USER: dtrace:::*, profile:::tick-N): same
//                     output, no privileges, fastest start; else the kmod
//                     engine when every such probe says DT_ENGINE_KMOD
//                     and /dev/dtrace exists or dtrace.ko loads;
//                     else the bpf engine when bpf() works here; else the
//                     user engine, whose refusal names the probe it cannot
//                     run. A program that reads kernel memory
//                     (program::reads_kernel: curthread, `sym) counts as
//                     needing a kernel engine although its probes need
//                     none: on illumos BEGIN runs in the kernel and reads
//                     it; without a kernel engine its reads fault. So
//                     does a tick-N clause that reads the thread the tick
//                     interrupted (clause::reads_thread(): pid, execname,
//                     self->, ustack(), ...): the user engine fires it in
//                     dtrace's own process, where they would be dtrace's.
//
// `dtrace -v` and DTRACE_DEBUG say which engine runs, and why.
#pragma once

#include <dtrace/engine.hpp>
#include <dtrace/program.hpp>
#include <dtrace/provider.hpp>
#include <dtrace/session.hpp>

#include <memory>
#include <optional>
#include <string>

namespace dt::detail {

// Can engine k run a probe that fires as `f` says (its provider's
// description)? nullopt if so, else why not: the session's capability
// query, answered without building the engine.
[[nodiscard]] std::optional<std::string> cannot_run(engine_kind k, const probe_fire &f);

// Decide for the probes the program matched (`en`, the front half).
[[nodiscard]] engine_decision choose_engine(engine_kind asked, const enabling &en,
					    const program &p);

[[nodiscard]] std::unique_ptr<engine> make_engine(engine_kind k, const engine_settings &s);

} // namespace dt::detail
