// SPDX-License-Identifier: MIT
//
// dtrace/consumer.hpp - turns what engines deliver into DTrace's output:
// the default per-probe lines, trace(), printf(), printa(), print(),
// stack()/ustack(), the aggregation tables printed at exit, error and drop
// messages (illumos libdtrace dt_consume.c, dt_printf.c, dt_aggregate.c).
//
//   engine.drain(consumer)  ─► records()      decode by EPID, format, print
//                           ─► aggregation()  merge deltas by function
//                           ─► fault()        "dtrace: error on enabled probe ID ..."
//                           ─► drops()        "dtrace: N drops on CPU C"
//   consumer.finish()       aggregations not printa()ed, in DTrace's layouts
//
// Output goes to `out` (stdout or -o), messages to `err`. The consumer keeps
// no pointer into the buffers it is given. Under -x oformat=json every
// record, faults and drops included, goes to `out` as one JSON document
// per line (docs/json.md); -x stackfmt=folded prints stack-keyed
// aggregations as folded lines for flame graphs.
#pragma once

#include <dtrace/api.hpp>

#include <dtrace/engine.hpp>
#include <dtrace/program.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

DT_API_BEGIN

namespace dt {

struct consumer_settings {
	FILE *out = stdout;
	FILE *err = stderr;
	bool quiet = false; // -q: no default per-probe output, no banner
	// Called when a printa() or exit needs aggregation data current: the
	// caller drains the engine's aggregation deltas into the consumer.
	std::function<void()> refresh;
};

class consumer : public engine_sink {
public:
	consumer(const program &p, std::vector<enabled_probe> eps, consumer_settings s);
	~consumer() override;
	consumer(const consumer &) = delete;
	consumer &operator=(const consumer &) = delete;

	void records(std::span<const uint8_t> buf, uint32_t cpu) override;
	void aggregation(const agg_data &d) override;
	void fault(const fault_report &f) override;
	void drops(std::string_view kind, uint64_t n, uint32_t cpu) override;

	// ECBs enabled while tracing (probes in objects a process mapped
	// later: session::work()); an EPID known already is kept as it was.
	void add_probes(const std::vector<enabled_probe> &eps);
	// Called every 2 ms while a system() command runs: the session
	// places the probes of processes that command starts, which stop
	// until it has (docs/usdt.md, "Processes started later"). It may call
	// add_probes(), never records().
	void set_system_wait(std::function<void()> f);

	// exit() was consumed: its status.
	[[nodiscard]] std::optional<int> exit_status() const;
	// switchrate (ns) as setopt("switchrate", ...) last set it while
	// tracing: the caller consumes at that rate from then on.
	[[nodiscard]] std::optional<uint64_t> switchrate() const;
	// Read process pid's mappings now, so that its user addresses (ustack,
	// usym, %A ...) still resolve once it has exited: illumos keeps a
	// grabbed (-c/-p) process's handle and symbol tables. Call it while
	// the process lives, again after it may have loaded objects; a
	// process that is gone keeps what was last read.
	void note_process(int32_t pid);
	// What dtrace(1) prints once tracing has stopped: refresh(), then the
	// newline dtrace(1) always prints after its loop (even with -q), then
	// every aggregation that no printa() printed. (Clarified by the
	// consumer helper: the CLI must not print that newline itself.)
	// Under -x oformat=json: the unprinted aggregations and the "end"
	// record (docs/json.md).
	void finish();
	// The aggregations as Prometheus' text exposition format (openmetrics:
	// OpenMetrics 1.0 text, ending "# EOF"), for -x metrics
	// (dtrace/metrics.hpp, docs/metrics.md; made by metrics.cc).
	[[nodiscard]] std::string metrics(bool openmetrics);
	// The output is for programs (-x oformat=json, -x stackfmt=folded):
	// the caller writes no text of its own into it (dtrace(1)'s newline
	// on an interrupt).
	[[nodiscard]] bool bare_output() const;

private:
	struct impl;
	std::unique_ptr<impl> impl_;
};

} // namespace dt

DT_API_END
