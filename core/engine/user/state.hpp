// SPDX-License-Identifier: MIT
//
// state.hpp - the user engine's state, shared by its files:
//
//   user_engine.cc  enable (match, ECBs, validation), go/stop, wait
//                   (tick-N timers), drain
//   fire.cc         one probe firing: each ECB's predicate and actions,
//                   records, aggregations, speculations, exit, faults and
//                   dtrace:::ERROR
//   vm_env.cc       the DIF VM's environment (dif_env.h): built-ins, safe
//                   loads, variable storage, speculation()
//
// Everything runs on the caller's thread; nothing here is thread-safe.
#pragma once

#include "buffers.hpp"
#include "util/mutex_layout.hpp"

#include <dtrace/engine.hpp>
#include <dtrace/program.hpp>

extern "C" {
#include "dif_agg.h"
#include "dif_emulate.h"
#include "dif_env.h"
}

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dt::engines::user {

// A program DIFO as the VM sees it (points into the engine's program copy).
struct vm_difo {
	dif_difo_t d{};
};

// The probes this engine can run.
enum class probe_kind { begin, end, error, tick };

struct ecb {
	enabled_probe ep;
	probe_kind kind = probe_kind::begin;
	uint64_t interval_ns = 0; // tick
};

struct timer {
	uint64_t deadline = 0;
	uint64_t interval = 0;
	uint32_t probe_id = 0;
};

// What one firing's DIF sees (the env pointer of dif_ctx_t).
struct firing_env {
	struct state *st = nullptr;
	const ecb *e = nullptr;
	std::array<uint64_t, 10> args{};
	uint64_t timestamp = 0;
	uint64_t vtimestamp = 0; // read at its first use in the firing
	uint32_t cpu = 0;
	// strtok()'s position (in state::strtok_buf), kept across the clauses
	// of the firing as illumos keeps mstate's dtms_strtok.
	uint64_t strtok = 0;
};

struct state {
	engine_settings settings;
	program prog;
	std::vector<ecb> ecbs;
	// One VM view per DIFO: predicates by clause, then records.
	std::map<const difo *, vm_difo> difos;

	// Options, from the program's resolved options (dtrace/options.hpp:
	// the defaults are the table's) at enable().
	uint64_t bufsize = 0;
	buf_policy policy = buf_policy::switch_;
	uint64_t strsize = 0;
	uint32_t nspec = 0;
	uint64_t specsize = 0;
	uint64_t dynvarsize = 0;
	std::optional<uint32_t> cpu; // option cpu: the one CPU tracing runs on
	uint64_t end_reserve = 0;    // bytes END clauses may record (fill policy)
	uint64_t aggsize = 0;	     // bytes of new keys a drain's aggregation buffer holds
	bool destructive = false;    // option destructive: -w's effect

	// Variables.
	std::vector<uint64_t> globals, locals;
	std::vector<dif_varbuf_t> grefs, lrefs;
	std::vector<uint8_t> varmem; // by-ref globals, then by-ref locals
	uint64_t locals_mem_off = 0;
	std::vector<uint64_t> dynmem; // the dynamic-variable arena (8-aligned)
	dif_dstate_t dstate{};
	bool have_dstate = false;
	uint64_t rand_state[2] = {0, 0};
	// struct mutex's owner word for mutex_*(): looked up in the kernel's
	// BTF only when a DIFO calls one (user_engine::add_difo).
	mutex_layout mutex;
	// Not zeroed: a firing reads only what it wrote, and pages of the
	// (bufsize) allocation that no firing reaches are never touched.
	std::unique_ptr<char[]> scratch;
	size_t scratch_size = 0;
	std::unique_ptr<char[]> strtok_buf; // strsize bytes: dif_ctx_t::strtok_buf

	// Buffers and aggregation deltas since the last drain.
	std::unique_ptr<principal_buffer> buf;
	std::vector<spec_buffer> specs; // [id - 1]
	std::map<std::pair<uint32_t, std::vector<uint8_t>>, std::vector<int64_t>> aggs;
	uint64_t agg_bytes = 0;			// what aggs takes of aggsize
	std::map<uint32_t, uint64_t> agg_drops; // by CPU: keys aggsize had no room for
	// Deltas taken out of aggs at aggrate (dtrace_aggregate_snap()), for
	// the next drain: aggsize bounds what accrues between two snapshots.
	std::vector<agg_data> agg_snaps;
	uint64_t aggrate = 0;  // ns
	uint64_t last_agg = 0; // mono_ns() of the last snapshot
	std::map<uint32_t, uint64_t> spec_drops;
	uint64_t spec_unavail = 0;
	uint64_t dblerrors = 0; // faults in ERROR clauses
	uint64_t dyn_drops_seen = 0, dyn_dirty_drops_seen = 0;
	// chill() by CPU: illumos cpu_dtrace_chillmark and cpu_dtrace_chilled.
	struct chill_budget {
		uint64_t mark = 0, chilled = 0;
	};
	std::map<uint32_t, chill_budget> chills;

	// Built-in strings the VM may read (execname, probe names).
	std::string execname = "dtrace";

	std::vector<timer> timers;
	bool started = false, stopped = false, exiting = false, in_error = false;
};

// vm_env.cc
[[nodiscard]] const dif_env_ops_t &env_ops();
// Is [addr, addr+size) memory the VM or a record may read directly?
[[nodiscard]] const uint8_t *owned_memory(const state &st, const firing_env &fe,
					  const dif_ctx_t &ctx, uint64_t addr, uint64_t size);
// Read our own memory without crashing (process_vm_readv); false if bad.
[[nodiscard]] bool safe_read(uint64_t addr, void *dst, uint64_t size);

// fire.cc
// Fire every ECB of probe_id with these arguments.
void fire(state &st, uint32_t probe_id, const std::array<uint64_t, 10> &args);

} // namespace dt::engines::user
