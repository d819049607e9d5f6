// SPDX-License-Identifier: MIT
//
// engine_choice.hpp - which engine runs a program (DESIGN.md §2):
//
//   -x engine=user    the in-process engine (BEGIN, END, ERROR, tick-N)
//   -x engine=bpf     the bpf engine (needs bpf(): root)
//   -x engine=kmod    the kmod engine (dtrace.ko through /dev/dtrace; loads
//                     the modules it needs: root)
//   (default: auto)   the user engine when every probe the program matches
//                     is one it runs (dtrace:::*, profile:::tick-N): same
//                     output, no privileges, fastest start; else the kmod
//                     engine when every such probe's provider has a kernel
//                     module and /dev/dtrace exists or dtrace.ko loads;
//                     else the bpf engine when bpf() works here; else the
//                     user engine, whose refusal names the probe it cannot
//                     run.
//
// `dtrace -v` and DTRACE_DEBUG say which engine runs, and why.
#pragma once

#include <dtrace/engine.hpp>
#include <dtrace/program.hpp>
#include <dtrace/provider.hpp>

#include <memory>
#include <optional>
#include <string>

namespace dt::cli {

enum class engine_kind { automatic, user, bpf, kmod };

// The -x engine value; nullopt (and `why`) when it names no engine we have.
[[nodiscard]] std::optional<engine_kind> parse_engine(const std::string &v, std::string &why);

struct engine_decision {
	engine_kind kind = engine_kind::user; // user, bpf or kmod
	std::string reason;		      // for -v: "chosen with -x engine", ...
	std::string failure; // non-empty: cannot run at all ("DTrace requires ...")
};

// Decide for `p` (compiled; its descriptions are matched on `reg`).
[[nodiscard]] engine_decision choose_engine(engine_kind asked, const program &p,
					    provider_registry &reg);

[[nodiscard]] std::unique_ptr<engine> make_engine(engine_kind k, const engine_settings &s);

[[nodiscard]] const char *engine_name(engine_kind k);

} // namespace dt::cli
