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

} // namespace dt
