// SPDX-License-Identifier: MIT
//
// dtrace/engine.hpp - what runs a program: the user engine (BEGIN, END,
// ERROR, tick-N in the consumer process), the bpf engine and the kmod
// engine, all behind this one interface (docs/architecture.md).
//
//   match_program(program, registry)   the front half, once for every
//                                      engine: descriptions -> probes ->
//                                      enabled_probe[] (EPIDs), per-clause
//                                      counts, what matched nothing
//   engine.enable(program, enabling)   create ECBs    -> enabled_probe[]
//   engine.go()             BEGIN fires; probes are live
//   loop: engine.wait(t)    sleep for t (switchrate), less if a buffer must
//                           be drained, exit() ran or a signal came
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

#include <dtrace/api.hpp>

#include <dtrace/error.hpp>
#include <dtrace/probe_desc.hpp>
#include <dtrace/program.hpp>
#include <dtrace/provider.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

DT_API_BEGIN

namespace dt {

class provider_registry;
struct probe;

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
	std::vector<uint8_t> key;   // aggregation::key_size bytes
	std::vector<int64_t> value; // aggregation::nwords words
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

// dt::error from an engine (errc::enable unless said otherwise). `clause`
// names the program clause at fault when the engine knows it (a probe it
// cannot attach, a clause the verifier refused), so that the caller can
// name the command-line piece it came from.
class engine_error : public error {
public:
	explicit engine_error(const std::string &message, errc code = errc::enable,
			      std::optional<uint32_t> clause = std::nullopt)
		: error(code, message), clause_(clause)
	{
	}
	engine_error(const std::string &message, uint32_t clause)
		: error(errc::enable, message), clause_(clause)
	{
	}
	[[nodiscard]] std::optional<uint32_t> clause() const { return clause_; }

private:
	std::optional<uint32_t> clause_;
};

// The front half shared by the engines: the program's descriptions
// matched to probes once, with each probe's provider's description of how
// it fires (which engines run it, flow, consumer probe or timer ...). ECBs are in clause order, and within a clause in
// description order, then the registry's id order; EPIDs are dense from 1.
// The user and bpf engines enable exactly these; the kmod engine hands the
// descriptions to dtrace.ko, which matches them against its own probes.
struct enabling {
	std::vector<enabled_probe> eps;
	std::vector<const probe *> probes; // probes[i] is the probe of eps[i]
	std::vector<probe_fire> fires;	   // how it fires, as its provider says
	std::vector<uint32_t> matched;	   // per clause: ECBs it created
	// Descriptions that matched no probe, with their clause, in order.
	std::vector<std::pair<uint32_t, probe_desc>> unmatched;
};

// Match every description of `p` on `reg`. A description a provider
// refuses (desc_refused) throws, unless `refused` is given: then its
// message is appended there and the description matches nothing.
[[nodiscard]] enabling match_program(const program &p, provider_registry &reg,
				     std::vector<std::string> *refused = nullptr);

// Unless zero_ok (-Z): the first unmatched description throws engine_error
// (errc::no_match, with its clause) "probe description D does not match
// any probes".
void require_matched(const enabling &en, bool zero_ok);

struct engine_settings {
	provider_registry *registry = nullptr;
	bool zero_ok = false;	    // -Z
	bool destructive = false;   // -w
	std::vector<int32_t> procs; // -c/-p targets ($target first)
	// EPIDs that add_probes() may use beyond the enabling's (bpf: room
	// in its probe map); 0: none will be added.
	uint32_t epid_reserve = 0;
};

class engine {
public:
	virtual ~engine();
	[[nodiscard]] virtual std::string_view name() const = 0;
	// Enable `p` with the ECBs the front half matched (`en`, from
	// match_program on this engine's registry). Throws engine_error with
	// DTrace's wording, e.g. "the user engine cannot enable
	// syscall::read:entry: ...", and the clause at fault when known.
	virtual std::vector<enabled_probe> enable(const program &p, const enabling &en) = 0;
	// match_program() on the engine's registry (engine_settings::registry,
	// else one of its own), then enable(p, en).
	std::vector<enabled_probe> enable(const program &p);
	virtual void go() = 0;
	virtual void stop() = 0;
	// Block for t, the consumer's switchrate interval (the user engine fires
	// its ticks meanwhile), or less if a buffer must be drained now, exit()
	// ran or a signal came.
	virtual void wait(std::chrono::nanoseconds t) = 0;
	virtual void drain(engine_sink &sink) = 0;
	// exit() ran: no more firings but END's.
	[[nodiscard]] virtual bool exiting() const = 0;

	// Probes that appear while tracing (objects a -c/-p process maps
	// later with dlopen(): the session's rescan, docs/usdt.md). An engine
	// that can take them says so; the others keep the default refusals.
	[[nodiscard]] virtual bool adds_probes() const { return false; }
	// Enable and attach more ECBs after go(): `more` as match_program()
	// makes it, with EPIDs the caller chose: new ones continue the dense
	// numbering, and an EPID enabled before and removed since is enabled
	// again. Throws engine_error (nothing of `more` left attached).
	virtual void add_probes(const enabling &more);
	// Detach these ECBs (their object was unmapped: dlclose()); their
	// EPIDs stay known, and add_probes() may enable them again.
	virtual void remove_probes(const std::vector<uint32_t> &epids);

protected:
	[[nodiscard]] virtual const engine_settings &settings() const = 0;
	// settings().registry, else a registry of the engine's own (made once,
	// on the default plugin path, for the settings' processes).
	[[nodiscard]] provider_registry &registry();

private:
	std::unique_ptr<provider_registry> own_registry_;
};

// The in-process engine. Throws engine_error if the program names probes it
// cannot run (anything but dtrace:::BEGIN/END/ERROR and profile:::tick-N).
[[nodiscard]] std::unique_ptr<engine> make_user_engine(const engine_settings &s);

// The bpf engine (core/engine/bpf): D programs translated to BPF, attached
// through the provider plugins' bpf hooks. Needs bpf() (root, or CAP_BPF
// and CAP_PERFMON). enable() throws engine_error for probes it cannot
// attach, with the plugin's reason when it gave one.
[[nodiscard]] std::unique_ptr<engine> make_bpf_engine(const engine_settings &s);

// Can this process use the bpf engine here? nullopt if so; else why not,
// in DTrace's words: errc::privilege "DTrace requires additional
// privileges", errc::unsupported "this kernel does not support bpf()".
[[nodiscard]] std::optional<error> bpf_engine_refusal();

// The kmod engine (core/engine/kmod): programs run by the kernel core
// dtrace.ko through /dev/dtrace. enable() loads the core and the provider
// modules the program needs (the plugins' kmod tables) from
// $DTRACE_KMOD_DIR or <libdir>/dtrace/modules/<uname -r>/ when they are
// not loaded, and throws engine_error when that is impossible (no
// CONFIG_MODULES, no privilege, no module built for this kernel).
[[nodiscard]] std::unique_ptr<engine> make_kmod_engine(const engine_settings &s);

// Can this process use the kmod engine here? /dev/dtrace exists, or
// dtrace.ko could be loaded (this call loads it): nullopt. If not, why.
[[nodiscard]] std::optional<error> kmod_engine_refusal();

// Could the kmod engine run a provider whose kernel half is `module` (NULL:
// none needed) here? The same question without loading anything (dtrace
// -l's engine notes): nullopt when /dev/dtrace exists or dtrace.ko could
// be loaded, and so could the module; else why not.
[[nodiscard]] std::optional<error> kmod_engine_could_run(const char *module);

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

DT_API_END
