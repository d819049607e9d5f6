// SPDX-License-Identifier: MIT
//
// dtrace/engine.hpp - what runs a program: the user engine today (BEGIN,
// END, ERROR, tick-N in the consumer process), the kmod and bpf engines
// later, all behind this one interface (DESIGN.md §2).
//
//   engine.enable(program)  match probes, create ECBs  -> enabled_probe[]
//   engine.go()             BEGIN fires; probes are live
//   loop: engine.wait(t)    sleep until data, a tick, or t
//         engine.drain(sink)  firings, aggregation deltas, faults, drops
//   engine.stop()           END fires (unless already stopped)
//   engine.drain(sink)      the rest
//
// Firings reach the sink as principal-buffer bytes (uapi/dtrace/actions.h
// layout), in the order they happened on each CPU. Aggregation data reach it
// as deltas since the previous drain; the consumer accumulates them.
// A fault in probe context discards that firing, is reported to the sink,
// and fires dtrace:::ERROR (whose clauses, if any, record normally).
#pragma once

#include <dtrace/probe_desc.hpp>
#include <dtrace/program.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dt {

class provider_registry;

// One ECB: a clause enabled on one probe.
struct enabled_probe {
	uint32_t epid = 0;     // 1-based, dense
	uint32_t probe_id = 0; // the registry's probe id
	probe_desc probe;      // full names of the probe
	uint32_t clause = 0;   // index into program::clauses
	// For -F (flowindent), from the provider's description of the probe
	// (dt::probe_fire flow and syscall): entry/return, and whether the
	// boundary is a system call's (=> <=) rather than a function's (-> <-).
	probe_flow flow = probe_flow::none;
	bool flow_syscall = false;
};

struct agg_data {
	uint32_t aggid = 0;
	std::vector<uint8_t> key;     // aggregation::key_size bytes
	std::vector<int64_t> value;   // aggregation::nwords words
};

struct fault_report {
	uint32_t epid = 0;
	uint32_t action = 0; // 1-based action index; 0 for the predicate
	int64_t offset = -1; // DIF byte offset, -1 if none
	uint16_t code = 0;   // DTRACEFLT_*
	uint64_t illval = 0;
};

// Where drain() delivers. Implemented by the consumer.
class engine_sink {
public:
	virtual ~engine_sink() = default;
	virtual void records(std::span<const uint8_t> buf, uint32_t cpu) = 0;
	virtual void aggregation(const agg_data &d) = 0;
	virtual void fault(const fault_report &f) = 0;
	// Drops since the last drain, by kind ("principal", "aggregation",
	// "dynamic", "speculative").
	virtual void drops(std::string_view kind, uint64_t n, uint32_t cpu) = 0;
};

class engine_error : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

class engine {
public:
	virtual ~engine() = default;
	[[nodiscard]] virtual std::string_view name() const = 0;
	// Throws engine_error with DTrace's wording, e.g. "probe description
	// syscall::read:entry does not match any probes" or "the user engine
	// cannot enable syscall::read:entry: ...".
	virtual std::vector<enabled_probe> enable(const program &p) = 0;
	virtual void go() = 0;
	virtual void stop() = 0;
	// Block until something may be ready to drain, or for at most t.
	virtual void wait(std::chrono::nanoseconds t) = 0;
	virtual void drain(engine_sink &sink) = 0;
	// exit() ran: no more firings but END's.
	[[nodiscard]] virtual bool exiting() const = 0;
};

struct engine_settings {
	provider_registry *registry = nullptr;
	bool zero_ok = false; // -Z
	bool destructive = false; // -w
	std::vector<int32_t> procs; // -c/-p targets ($target first)
};

// The in-process engine. Throws engine_error if the program names probes it
// cannot run (anything but dtrace:::BEGIN/END/ERROR and profile:::tick-N).
[[nodiscard]] std::unique_ptr<engine> make_user_engine(const engine_settings &s);

// The bpf engine (core/engine/bpf): D programs translated to BPF, attached
// through the provider plugins' bpf hooks. Needs bpf() (root, or CAP_BPF
// and CAP_PERFMON). enable() throws engine_error for probes it cannot
// attach, with the plugin's reason when it gave one.
[[nodiscard]] std::unique_ptr<engine> make_bpf_engine(const engine_settings &s);

// Can this process use the bpf engine here? If not, `why` says so in
// DTrace's words ("DTrace requires additional privileges", "this kernel
// does not support bpf()").
[[nodiscard]] bool bpf_engine_available(std::string *why = nullptr);

// The kmod engine (core/engine/kmod): programs run by the kernel core
// dtrace.ko through /dev/dtrace. enable() loads the core and the provider
// modules the program needs (the plugins' kmod tables) from
// $DTRACE_KMOD_DIR or <libdir>/dtrace/modules/<uname -r>/ when they are
// not loaded, and throws engine_error when that is impossible (no
// CONFIG_MODULES, no privilege, no module built for this kernel).
[[nodiscard]] std::unique_ptr<engine> make_kmod_engine(const engine_settings &s);

// Can this process use the kmod engine here? /dev/dtrace exists, or
// dtrace.ko could be loaded (this call loads it). If not, `why` says why.
[[nodiscard]] bool kmod_engine_available(std::string *why = nullptr);

// `dtrace -x engine=kmod -l` (issue 4): the kernel's probes matching `d`
// (empty fields match anything), in the kernel's id order, read with
// DTRACEIOC_PROBEMATCH, which first lets providers create probes the
// description names (profile-N). Loads dtrace.ko and the kernel halves of
// the providers d.provider could name, as the kmod engine's enable() does
// (a plugin without a kernel module contributes no probes). Throws
// engine_error as enable() does when a module cannot be loaded or
// /dev/dtrace cannot be opened.
struct kernel_probe {
	uint32_t id = 0; // the kernel's probe id
	probe_desc desc;
};
[[nodiscard]] std::vector<kernel_probe> kmod_list_probes(provider_registry &reg,
							 const probe_desc &d);

} // namespace dt
