// SPDX-License-Identifier: MIT
// Placing uprobe-backed probes (pid, USDT) in their kernel half,
// dtrace_pid.ko, for the kmod engine (plugin.h dt_plugin_kmod_ops_t::place;
// the device's ABI is kmod/include/uapi/dtrace/uprobe.h).
//
// The probe's place is what the plugin's bpf attach() says (the same
// object, offset, process, context and USDT operands), so both engines
// trace the same instruction:
//
//   dt_bpf_attach_t                       dtrace_uprobe_place_t
//   URETPROBE                          -> RETURN
//   UPROBE, ctx REGS / REGS_INSN / USDT -> ENTRY / INSN / USDT
//   target (a path), offset            -> an fd of it, offset
//   pid (-1: every process)            -> pid (0: every process)
//   usdt_args, ref_ctr_offset          -> args, ref_ctr_offset
//
// One session (an open of /dev/dtrace_uprobe) per plugin state: the probes
// placed stay until it is destroyed (the plugin's fini()).
#pragma once

#include <dtrace/plugin.h>

#include <string>

namespace dt::plugin::user {

class kmod_uprobes {
public:
	kmod_uprobes() = default;
	~kmod_uprobes();
	kmod_uprobes(const kmod_uprobes &) = delete;
	kmod_uprobes &operator=(const kmod_uprobes &) = delete;

	// Place probe `p` where `a` (the plugin's bpf attach()) says: 0, or a
	// negative errno with DTrace's message logged to `host` at error
	// level. A name longer than dtrace.ko's is not placed (the kernel has
	// no such probe, as for illumos) and returns 0, logged at debug level.
	[[nodiscard]] int place(const dt_plugin_host_t *host, const dt_probe_info_t &p,
				const dt_bpf_attach_t &a);

private:
	static constexpr int k_skipped = 1;
	int place(const dt_probe_info_t &p, const dt_bpf_attach_t &a, std::string &why);
	int fd_ = -1;
};

} // namespace dt::plugin::user
