// SPDX-License-Identifier: MIT
//
// uprobes.hpp - the kmod engine's uprobes: probes that fire from a uprobe
// (dt_probe_fire_t kind DT_FIRE_UPROBE: pid, USDT) are placed in
// dtrace_pid.ko, the uprobe provider module (plugins/pid/kernel), before
// the program is enabled on /dev/dtrace, through /dev/dtrace_uprobe
// (kmod/include/uapi/dtrace/uprobe.h).
//
// Where a uprobe goes is what the probe's plugin says for the bpf engine
// (its attach(), dt_bpf_attach_t), so both engines trace the same
// instruction and read the same arguments:
//
//   dt_bpf_attach_t                        dtrace_uprobe_place_t
//   URETPROBE                           -> RETURN
//   UPROBE, ctx REGS / REGS_INSN / USDT -> ENTRY / INSN / USDT
//   target (a path), offset             -> an fd of it, offset
//   pid (-1: every process)             -> pid (0: every process)
//   usdt_args, ref_ctr_offset           -> args, ref_ctr_offset
//
// One session (an open of /dev/dtrace_uprobe) per engine, or per `dtrace
// -l` listing (place_for_listing()): what it placed stays until the
// session is destroyed, after the engine's /dev/dtrace consumer closed.
#pragma once

#include <dtrace/plugin.h>
#include <dtrace/probe_desc.hpp>
#include <dtrace/provider.hpp>

#include <string>
#include <vector>

namespace dt::kmod {

class uprobes {
public:
	uprobes() = default;
	~uprobes();
	uprobes(const uprobes &) = delete;
	uprobes &operator=(const uprobes &) = delete;

	// Place probe `d` where `a` says: 0; k_skipped when a name is longer
	// than dtrace.ko's (the kernel has no such probe, as for illumos);
	// else a negative errno. `why` says what went wrong.
	[[nodiscard]] int place(const probe_desc &d, const dt_bpf_attach_t &a, std::string &why);
	// The same for registry probe `p`, where its plugin's attach() says.
	[[nodiscard]] int place(provider_registry &reg, const probe &p, std::string &why);
	static constexpr int k_skipped = 1;

private:
	int fd_ = -1;
};

// Does `f` say its probe fires from a uprobe on the kmod engine?
[[nodiscard]] inline bool fires_from_uprobe(const probe_fire &f)
{
	return f.kind == fire_kind::uprobe && f.runs_on(DT_ENGINE_KMOD);
}

// `dtrace -l` on the kmod engine: dtrace.ko has a uprobe probe only once it
// is placed (illumos fasttrap's probes come to exist when a description
// names them, before any is enabled). Every probe of `probes` that fires
// from a uprobe is placed in `u`, which keeps them while it lives (a
// placed probe arms no uprobe until it is enabled). Throws engine_error
// with the plugin's reason.
void place_for_listing(uprobes &u, provider_registry &reg,
		       const std::vector<const probe *> &probes);

} // namespace dt::kmod
