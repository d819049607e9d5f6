// SPDX-License-Identifier: MIT
// The user engine (dtrace/engine.hpp): runs dtrace:::BEGIN, END, ERROR and
// profile:::tick-N in the consumer process with the DIF VM (a tick-N firing
// has arg0 = 0 and arg1 = the user PC in this process that waited on it).
//
//   enable(program)  match each clause's descriptions (provider registry)
//                    ─► ECBs in clause, description, probe-id order; every
//                    DIFO validated; options (bufsize, bufpolicy, strsize,
//                    nspec, specsize, dynvarsize) read; variable storage
//                    laid out
//   go()             BEGIN fires; tick-N timers armed
//   wait(t)          fires the ticks that come due until t has passed
//                    (or a signal, or exit()); returns at once once exit()
//                    ran or tracing stopped
//   stop()           END fires (once)
//   drain(sink)      in dtrace_work()'s order: status drop counts
//                    ("speculative", "speculative_unavail", "dynamic",
//                    "dynamic_dirty", "dblerror" = faults in ERROR
//                    clauses), aggregation deltas, then principal-buffer
//                    firings and faults in order and "principal" drops
//
// Aggregating actions take args[0] as the value (count(): none) and, for
// the quantizations, args[1] as the increment (default 1); lquantize and
// llquantize parameters come from aggregation::params.
#include "../buffer_sizes.hpp"
#include "../options.hpp"
#include "state.hpp"
#include "util/assert.hpp"

#include <dtrace/provider.hpp>

extern "C" {
#include "dif_validate.h"
}

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>

namespace dt::engines::user {
namespace {

uint64_t mono_ns()
{
	struct timespec ts {};
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
	       static_cast<uint64_t>(ts.tv_nsec);
}

// Sleep until the CLOCK_MONOTONIC deadline; false if a signal woke us.
bool sleep_until(uint64_t deadline)
{
	struct timespec ts {};
	ts.tv_sec = static_cast<time_t>(deadline / 1'000'000'000ULL);
	ts.tv_nsec = static_cast<long>(deadline % 1'000'000'000ULL);
	int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
	return rc != EINTR;
}

bool is_byref(const dtrace_diftype_t &t)
{
	return t.dtdt_kind == DIF_TYPE_STRING || (t.dtdt_flags & DIF_TF_BYREF) != 0;
}

uint64_t round8(uint64_t n)
{
	return (n + 7) & ~uint64_t{7};
}

class user_engine final : public engine {
public:
	explicit user_engine(const engine_settings &s) { st_.settings = s; }

	std::string_view name() const override { return "user"; }
	using engine::enable;
	std::vector<enabled_probe> enable(const program &p, const enabling &en) override;
	void go() override;
	void stop() override;
	void wait(std::chrono::nanoseconds t) override;
	void drain(engine_sink &sink) override;
	bool exiting() const override { return st_.exiting || (st_.buf && st_.buf->filled()); }

protected:
	const engine_settings &settings() const override { return st_.settings; }

private:
	void fire_due_ticks();
	void snap_aggs();

	state st_;
	resolved_options opts_{};	// read_options()
	engines::buffer_needs needs_{}; // enable(): what the ECBs record

	void read_options();
	void add_difo(const difo &d, const std::string &where);
	void layout_variables();
	void fire_kind(probe_kind k);
};

void user_engine::read_options()
{
	const resolved_options o = engine_options(st_.prog);
	opts_ = o;
	st_.bufsize = o.bufsize;
	st_.strsize = o.strsize;
	st_.nspec = o.nspec;
	st_.specsize = o.specsize;
	st_.dynvarsize = o.dynvarsize;
	st_.aggsize = o.aggsize;
	st_.aggrate = o.aggrate;
	// Option cpu: this engine's probes fire in this process, so tracing
	// on one CPU is running there (read as dt_opt_runtime() reads it).
	st_.cpu.reset();
	if (auto it = st_.prog.options.find("cpu");
	    it != st_.prog.options.end() && !option_unsets("cpu", it->second))
		st_.cpu = static_cast<uint32_t>(std::strtoul(it->second.c_str(), nullptr, 0));
	st_.destructive = o.destructive;
	switch (o.bufpolicy) {
	case buffer_policy::switch_: st_.policy = buf_policy::switch_; break;
	case buffer_policy::fill: st_.policy = buf_policy::fill; break;
	case buffer_policy::ring: st_.policy = buf_policy::ring; break;
	}
}

void user_engine::add_difo(const difo &d, const std::string &where)
{
	vm_difo v;
	v.d.text = d.text.data();
	v.d.len = static_cast<uint32_t>(d.text.size());
	v.d.intlen = static_cast<uint32_t>(d.inttab.size());
	v.d.inttab = d.inttab.data();
	v.d.strtab = d.strtab.empty() ? nullptr : d.strtab.data();
	v.d.strlen = static_cast<uint32_t>(d.strtab.size());
	v.d.varlen = static_cast<uint32_t>(d.vartab.size());
	v.d.vartab = d.vartab.data();
	v.d.rtype = d.rtype;
	dif_limits_t lim = DIF_LIMITS_DEFAULT;
	dif_verr_t err{};
	if (dif_validate(&v.d, &lim, &err) != 0)
		throw engine_error("invalid DIF in " + where + " at offset " +
				   std::to_string(err.offset) + ": " + err.reason);
	st_.difos[&d] = v;
	for (dif_instr_t i : d.text)
		if (DIF_INSTR_OP(i) == DIF_OP_CALL && DIF_INSTR_SUBR(i) >= DIF_SUBR_MUTEX_OWNED &&
		    DIF_INSTR_SUBR(i) <= DIF_SUBR_MUTEX_TYPE_SPIN)
			st_.mutex = kernel_mutex_layout();
}

void user_engine::layout_variables()
{
	// Every variable: the program's list, plus what the DIFOs reference.
	struct var {
		uint8_t kind, scope;
		dtrace_diftype_t type;
		const variable *decl;
	};
	std::map<std::pair<uint32_t, uint8_t>, var> vars;
	for (const variable &v : st_.prog.variables)
		vars[{v.id, v.scope}] = {v.kind, v.scope, v.type, &v};
	for (const auto &[d, vd] : st_.difos)
		for (const dtrace_difv_t &v : d->vartab)
			vars.try_emplace({v.dtdv_id, v.dtdv_scope},
					 var{v.dtdv_kind, v.dtdv_scope, v.dtdv_type, nullptr});

	uint32_t nglobals = 0, nlocals = 0;
	uint64_t chunksize = 0;
	for (const auto &[k, v] : vars) {
		uint32_t id = k.first;
		bool dynamic = v.kind == DIFV_KIND_ARRAY || v.scope == DIFV_SCOPE_THREAD;
		uint64_t valsize = !is_byref(v.type)			 ? 8
				   : v.type.dtdt_kind == DIF_TYPE_STRING ? st_.strsize
									 : v.type.dtdt_size;
		if (dynamic) {
			uint64_t nkeys = 1 + (v.scope == DIFV_SCOPE_THREAD ? 1 : 0);
			uint64_t keybytes = 0;
			if (v.decl != nullptr) {
				nkeys += v.decl->key_types.size();
				for (const value_type &t : v.decl->key_types)
					if (t.k == value_type::kind::string)
						keybytes += st_.strsize;
					else if (t.k == value_type::kind::bytes)
						keybytes += t.size;
			} else if (v.kind == DIFV_KIND_ARRAY) {
				nkeys += DIF_DTR_NREGS;
				keybytes += 2 * st_.strsize;
			}
			chunksize =
				std::max(chunksize, DIF_DSTATE_CHUNKSIZE(nkeys, keybytes, valsize));
			continue;
		}
		if (id < DIF_VAR_OTHER_UBASE)
			continue;
		if (v.scope == DIFV_SCOPE_GLOBAL)
			nglobals = std::max(nglobals, id - DIF_VAR_OTHER_UBASE + 1);
		else if (v.scope == DIFV_SCOPE_LOCAL)
			nlocals = std::max(nlocals, id - DIF_VAR_OTHER_UBASE + 1);
	}
	st_.globals.assign(nglobals, 0);
	st_.locals.assign(nlocals, 0);
	st_.grefs.assign(nglobals, {nullptr, 0});
	st_.lrefs.assign(nlocals, {nullptr, 0});

	// By-ref scalars: globals first, then locals (reset per clause firing).
	std::vector<std::pair<dif_varbuf_t *, uint64_t>> bufs; // (varbuf, offset)
	uint64_t off = 0;
	for (int pass = 0; pass < 2; pass++) {
		uint8_t scope = pass == 0 ? DIFV_SCOPE_GLOBAL : DIFV_SCOPE_LOCAL;
		if (pass == 1)
			st_.locals_mem_off = off;
		for (const auto &[k, v] : vars) {
			if (v.scope != scope || v.kind != DIFV_KIND_SCALAR || !is_byref(v.type) ||
			    k.first < DIF_VAR_OTHER_UBASE)
				continue;
			uint64_t size = v.type.dtdt_kind == DIF_TYPE_STRING ? st_.strsize
									    : v.type.dtdt_size;
			auto &refs = pass == 0 ? st_.grefs : st_.lrefs;
			dif_varbuf_t *vb = &refs[k.first - DIF_VAR_OTHER_UBASE];
			vb->size = size;
			bufs.emplace_back(vb, off);
			off += DIF_VARBUF_HDR + round8(size);
		}
	}
	st_.varmem.assign(off, 0);
	for (auto [vb, o] : bufs)
		vb->data = st_.varmem.data() + o;

	if (chunksize != 0) {
		st_.dynmem.assign(
			std::max<uint64_t>(st_.dynvarsize, DIF_DSTATE_MINSIZE(chunksize)) / 8, 0);
		if (dif_dstate_init(&st_.dstate, st_.dynmem.data(), st_.dynmem.size() * 8,
				    chunksize) != 0)
			throw engine_error("dynvarsize " + std::to_string(st_.dynvarsize) +
					   " is too small for the program's dynamic variables");
		st_.have_dstate = true;
	}
}

std::vector<enabled_probe> user_engine::enable(const program &p, const enabling &en)
{
	st_.prog = p;
	read_options();

	std::vector<enabled_probe> out;
	size_t next = 0; // en.eps is in clause order
	for (uint32_t ci = 0; ci < st_.prog.clauses.size(); ci++) {
		const clause &c = st_.prog.clauses[ci];
		for (; next < en.eps.size() && en.eps[next].clause == ci; next++) {
			const probe_desc &pd = en.probes[next]->desc;
			const probe_fire &f = en.fires[next];
			ecb e;
			if (!f.runs_on(DT_ENGINE_USER))
				throw engine_error("the user engine cannot enable " + pd.str() +
							   ": it runs only dtrace:::BEGIN, "
							   "dtrace:::END, dtrace:::ERROR and "
							   "profile:::tick-N",
						   ci);
			if (f.kind == fire_kind::consumer && f.consumer == consumer_probe::begin) {
				e.kind = probe_kind::begin;
			} else if (f.kind == fire_kind::consumer &&
				   f.consumer == consumer_probe::end) {
				e.kind = probe_kind::end;
			} else if (f.kind == fire_kind::consumer &&
				   f.consumer == consumer_probe::error) {
				e.kind = probe_kind::error;
			} else if (f.kind == fire_kind::timer && !f.per_cpu) {
				e.kind = probe_kind::tick;
				e.interval_ns = f.period_ns;
			} else {
				throw engine_error(
					"the user engine cannot enable " + pd.str() + ": the " +
						en.probes[next]->prov->name() +
						" provider says it can, but it fires on a "
						"kernel event",
					ci);
			}
			e.ep = en.eps[next];
			st_.ecbs.push_back(e);
			out.push_back(e.ep);
		}
		std::string where = "clause " + std::to_string(ci + 1);
		if (c.predicate)
			add_difo(*c.predicate, where + " predicate");
		for (const action &a : c.actions) {
			for (const record &r : a.keys)
				add_difo(r.expr, where);
			for (const record &r : a.args)
				add_difo(r.expr, where);
		}
	}
	DT_ASSERT(next == en.eps.size()); // the front half's ECBs are in clause order
	needs_ = engines::buffer_needs_of(st_.prog, en);
	st_.bufsize = engines::principal_bufsize(needs_, opts_);
	st_.end_reserve = needs_.end_reserve;
	layout_variables();
	st_.scratch_size = std::clamp<uint64_t>(st_.bufsize, 64 << 10, 64 << 20);
	st_.scratch.reset(new char[st_.scratch_size]);
	st_.strtok_buf.reset(new char[st_.strsize]());
	st_.specs.assign(st_.nspec, spec_buffer{});
	st_.buf = std::make_unique<principal_buffer>(st_.policy, st_.bufsize, st_.end_reserve);
	std::random_device rd;
	st_.rand_state[0] = (uint64_t{rd()} << 32) | rd() | 1;
	st_.rand_state[1] = (uint64_t{rd()} << 32) | rd();
	return out;
}

void user_engine::fire_kind(probe_kind k)
{
	std::vector<uint32_t> ids;
	for (const ecb &e : st_.ecbs)
		if (e.kind == k && std::find(ids.begin(), ids.end(), e.ep.probe_id) == ids.end())
			ids.push_back(e.ep.probe_id);
	for (uint32_t id : ids)
		fire(st_, id, {});
}

void user_engine::go()
{
	if (st_.started || !st_.buf)
		return;
	st_.last_agg = mono_ns();
	if (st_.prog.destructive() && !st_.settings.destructive && !st_.destructive)
		throw engine_error("Destructive actions not allowed");
	// illumos dtrace_state_go(), at DTRACEIOC_GO: buffers too small for
	// what the ECBs record are refused (buffer_sizes.hpp).
	engines::check_buffer_sizes(needs_, opts_);
	if (st_.cpu) {
		cpu_set_t set;
		CPU_ZERO(&set);
		if (*st_.cpu >= CPU_SETSIZE)
			throw engine_error(std::strerror(EINVAL));
		CPU_SET(*st_.cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0)
			throw engine_error(std::strerror(errno));
	}
	st_.started = true;
	fire_kind(probe_kind::begin);
	uint64_t now = mono_ns();
	for (const ecb &e : st_.ecbs) {
		if (e.kind != probe_kind::tick)
			continue;
		bool dup = false;
		for (const timer &t : st_.timers)
			dup = dup || t.probe_id == e.ep.probe_id;
		if (!dup)
			st_.timers.push_back({now + e.interval_ns, e.interval_ns, e.ep.probe_id});
	}
}

void user_engine::stop()
{
	if (!st_.started || st_.stopped)
		return;
	st_.stopped = true;
	fire_kind(probe_kind::end);
}

void user_engine::wait(std::chrono::nanoseconds t)
{
	if (!st_.started || st_.stopped || exiting())
		return;
	uint64_t until = mono_ns() + static_cast<uint64_t>(std::max<int64_t>(t.count(), 0));
	// Ticks fire as they come due for the whole of t, the consumer's
	// switchrate interval: what they trace waits in the principal buffer
	// for the next drain, as a kernel's buffers wait for dtrace_consume().
	for (;;) {
		uint64_t next = UINT64_MAX;
		for (const timer &tm : st_.timers)
			next = std::min(next, tm.deadline);
		if (next > until) {
			sleep_until(until);
			return;
		}
		if (!sleep_until(next))
			return; // a signal: the caller looks at it
		fire_due_ticks();
		if (exiting())
			return;
		if (mono_ns() - st_.last_agg >= st_.aggrate)
			snap_aggs();
	}
}

// dtrace_aggregate_snap() at aggrate: the deltas so far leave the
// aggregation buffer (aggsize) for the next drain.
void user_engine::snap_aggs()
{
	st_.last_agg = mono_ns();
	for (auto &[k, v] : st_.aggs)
		st_.agg_snaps.push_back({k.first, k.second, std::move(v)});
	st_.aggs.clear();
	st_.agg_bytes = 0;
}

void user_engine::fire_due_ticks()
{
	// Fire every due tick, in deadline order, once per elapsed interval
	// (at most 1000 catch-ups per timer, so a stall cannot storm).
	uint64_t now = mono_ns();
	for (;;) {
		timer *due = nullptr;
		for (timer &tm : st_.timers)
			if (tm.deadline <= now && (due == nullptr || tm.deadline < due->deadline))
				due = &tm;
		if (due == nullptr || exiting())
			break;
		if (now - due->deadline > 1000 * due->interval)
			due->deadline = now - (now - due->deadline) % due->interval;
		due->deadline += due->interval;
		// As illumos' profile provider: arg0 is the kernel PC and arg1
		// the user PC of the interrupted thread, exactly one of them
		// non-zero. Here the probe fires in this thread, in user mode,
		// so arg0 is 0 and arg1 the PC of the code that waits on it.
		const auto upc = reinterpret_cast<uint64_t>(
			__builtin_extract_return_addr(__builtin_return_address(0)));
		fire(st_, due->probe_id, {0, upc});
	}
}

void user_engine::drain(engine_sink &sink)
{
	if (!st_.buf)
		return;
	// The order of libdtrace's dtrace_work(): status (speculation,
	// dynamic-variable and double-error counts), then the aggregation
	// snapshot (so a printa() in a record sees every update so far), then
	// the principal buffer with its drops.
	for (auto &[cpu, n] : st_.spec_drops)
		if (n != 0)
			sink.drops("speculative", n, cpu);
	st_.spec_drops.clear();
	if (st_.spec_unavail != 0)
		sink.drops("speculative_unavail", st_.spec_unavail, 0);
	st_.spec_unavail = 0;
	if (st_.have_dstate) {
		uint64_t d = st_.dstate.drops - st_.dyn_drops_seen;
		uint64_t dd = st_.dstate.dirty_drops - st_.dyn_dirty_drops_seen;
		st_.dyn_drops_seen = st_.dstate.drops;
		st_.dyn_dirty_drops_seen = st_.dstate.dirty_drops;
		if (d > dd)
			sink.drops("dynamic", d - dd, 0);
		if (dd != 0)
			sink.drops("dynamic_dirty", dd, 0);
	}
	if (st_.dblerrors != 0)
		sink.drops("dblerror", st_.dblerrors, 0);
	st_.dblerrors = 0;

	for (auto &[cpu, n] : st_.agg_drops)
		if (n != 0)
			sink.drops("aggregation", n, cpu);
	st_.agg_drops.clear();
	st_.agg_bytes = 0;
	for (const agg_data &d : st_.agg_snaps)
		sink.aggregation(d);
	st_.agg_snaps.clear();
	st_.last_agg = mono_ns();
	for (auto &[k, v] : st_.aggs) {
		agg_data d;
		d.aggid = k.first;
		d.key = k.second;
		d.value = v;
		sink.aggregation(d);
	}
	st_.aggs.clear();
	st_.buf->drain(sink, st_.stopped);
}

} // namespace
} // namespace dt::engines::user

namespace dt {

std::unique_ptr<engine> make_user_engine(const engine_settings &s)
{
	return std::make_unique<engines::user::user_engine>(s);
}

} // namespace dt
