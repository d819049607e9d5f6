// SPDX-License-Identifier: MIT
// One probe firing in the user engine (illumos dtrace_probe()'s ECB loop):
//
//   clause-locals reset (they persist across the clauses of one firing)
//   for each ECB of the probe, in EPID order:
//     exit() ran (draining): only END and ERROR ECBs run any more
//     no room in the principal buffer ─► a drop, next ECB
//     scratch reset (strtok's position and copy last for the firing)
//     predicate ── fault ─► report, ERROR, next ECB;  false ─► next ECB
//     actions: each record's DIF ─► its bytes at its offset in the firing
//              aggregating: keys ─► key bytes; value (, increment) ─► delta
//              speculate(id): the firing goes to that speculation instead
//              commit/discard(id), exit(n): take effect once the firing is kept
//     any fault: the firing is discarded, dtrace:::ERROR fired with
//     arg1..arg5 = EPID, action index, DIF offset, fault code, illegal
//     value, then the fault reported, in buffer order after ERROR's
//     firings (libdtrace's own ERROR enabling, which prints the message,
//     comes after the program's). A fault in an ERROR clause is counted
//     as a double error instead (drain: drops("dblerror")).
//
// Action indexes count one per aggregation key and one per argument (one
// for an action without arguments), as illumos' one-action-per-record
// kernel actions are numbered; 0 is the predicate.
#include "state.hpp"

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace dt::engines::user {
namespace {

// illumos' dtrace_aggkey_t: what each key costs the aggregation buffer
// besides its data.
constexpr uint64_t k_aggkey_bytes = 40;

uint64_t bytes8(uint64_t n)
{
	return (n + 7) & ~uint64_t{7};
}

uint64_t now_ns()
{
	struct timespec ts {};
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
	       static_cast<uint64_t>(ts.tv_nsec);
}

// chill(ns), illumos dtrace_action_chill(): spin ns in probe context, at
// most k_chill_max in each k_chill_interval on a CPU (dtrace_chill_max,
// dtrace_chill_interval); a request past that, or whose sum overflows,
// spins not at all and is an illegal operation (false). timestamp is read
// again afterwards: the one exception to its staying put in a firing.
constexpr uint64_t k_chill_max = 500'000'000;
constexpr uint64_t k_chill_interval = 1'000'000'000;

bool chill(state &st, firing_env &fe, uint64_t ns)
{
	state::chill_budget &b = st.chills[fe.cpu];
	const uint64_t start = now_ns();
	if (start - b.mark > k_chill_interval) {
		b.mark = start;
		b.chilled = 0;
	}
	if (b.chilled + ns > k_chill_max || b.chilled + ns < b.chilled)
		return false;
	while (now_ns() - start < ns)
		continue;
	fe.timestamp = now_ns();
	b.chilled += ns;
	return true;
}

struct ecb_run {
	state &st;
	firing_env &fe;
	dif_ctx_t ctx{};
	uint16_t fault = 0;
	uint64_t illval = 0;
	int64_t fault_off = -1;

	// strtok() continues in the firing's next clause.
	~ecb_run() { fe.strtok = ctx.strtok; }

	// Run one DIFO; false on a fault (recorded in fault/illval/fault_off).
	bool run(const difo &d)
	{
		auto it = st.difos.find(&d);
		if (it == st.difos.end()) {
			fault = DTRACEFLT_ILLOP;
			return false;
		}
		ctx.difo = &it->second.d;
		std::copy(std::begin(st.rand_state), std::end(st.rand_state), ctx.rand_state);
		int rc = dif_emulate(&ctx);
		std::copy(std::begin(ctx.rand_state), std::end(ctx.rand_state), st.rand_state);
		if (rc != 0) {
			fault = ctx.fault;
			illval = ctx.illval;
			fault_off = ctx.fault_pc;
			return false;
		}
		return true;
	}

	// Copy size bytes the VM produced at addr (DTrace-owned memory only).
	bool copy_owned(uint64_t addr, uint8_t *dst, uint64_t size)
	{
		if (size == 0)
			return true;
		if (owned_memory(st, fe, ctx, addr, size) == nullptr) {
			fault = DTRACEFLT_BADADDR;
			illval = addr;
			fault_off = -1;
			return false;
		}
		std::memcpy(dst, reinterpret_cast<const void *>(addr), size);
		return true;
	}

	// Write a value of type t into dst (size bytes).
	bool write_value(const value_type &t, uint64_t v, uint8_t *dst, uint32_t size)
	{
		std::memset(dst, 0, size);
		switch (t.k) {
		case value_type::kind::string: {
			// A NULL string (an unassigned thread-local or associative
			// array element) faults at 0, as illumos' by-ref store does.
			if (size == 0)
				return true;
			for (uint32_t i = 0; i + 1 < size; i++) {
				const uint8_t *p = owned_memory(st, fe, ctx, v + i, 1);
				// A string that runs to the end of the DTrace memory
				// holding it (alloca()'d bytes filled by copyinto, say)
				// ends there.
				if (p == nullptr && i > 0 &&
				    owned_memory(st, fe, ctx, v, i) != nullptr)
					break;
				if (p == nullptr) {
					fault = DTRACEFLT_BADADDR;
					illval = v + i;
					fault_off = -1;
					return false;
				}
				if (*p == 0)
					break;
				dst[i] = *p;
			}
			return true;
		}
		case value_type::kind::bytes: return copy_owned(v, dst, size);
		case value_type::kind::stack: return true; // no kernel stack here
		case value_type::kind::ustack: {
			auto pid = static_cast<uint64_t>(getpid());
			std::memcpy(dst, &pid, std::min<uint32_t>(size, 8));
			return true;
		}
		case value_type::kind::usym:
		case value_type::kind::umod:
		case value_type::kind::uaddr: {
			uint64_t w[2] = {static_cast<uint64_t>(getpid()), v};
			std::memcpy(dst, w, std::min<uint32_t>(size, 16));
			return true;
		}
		default: std::memcpy(dst, &v, std::min<uint32_t>(size, 8)); return true;
		}
	}
};

void reset_clause_state(state &st)
{
	std::fill(st.locals.begin(), st.locals.end(), 0);
	if (st.locals_mem_off < st.varmem.size())
		std::fill(st.varmem.begin() + static_cast<ptrdiff_t>(st.locals_mem_off),
			  st.varmem.end(), 0);
}

void report_fault(state &st, firing_env &fe, uint32_t action, const ecb_run &r);

// Run one ECB; the firing's bytes go to the principal or a speculation.
void run_ecb(state &st, firing_env &fe)
{
	const ecb &e = *fe.e;
	const clause &c = st.prog.clauses[e.ep.clause];

	ecb_run r{st, fe};
	dif_ctx_t &ctx = r.ctx;
	ctx.ops = &env_ops();
	ctx.env = &fe;
	ctx.scratch = st.scratch.get();
	ctx.scratch_size = st.scratch_size;
	ctx.scratch_used = 0;
	ctx.strtok = fe.strtok;
	ctx.strtok_buf = st.strtok_buf.get();
	ctx.globals = st.globals.data();
	ctx.nglobals = static_cast<uint32_t>(st.globals.size());
	ctx.locals = st.locals.data();
	ctx.nlocals = static_cast<uint32_t>(st.locals.size());
	ctx.strsize = st.strsize;
	ctx.kernel_priv = false;
	ctx.grefs = st.grefs.empty() ? nullptr : st.grefs.data();
	ctx.lrefs = st.lrefs.empty() ? nullptr : st.lrefs.data();
	ctx.varmem = st.varmem.empty() ? nullptr : st.varmem.data();
	ctx.varmem_size = st.varmem.size();
	ctx.dstate = st.have_dstate ? &st.dstate : nullptr;
	ctx.thread_key = static_cast<uint64_t>(gettid());
	ctx.mutex_owner = st.mutex.owner;
	ctx.mutex_owner_mask = st.mutex.owner_mask;

	// Room for the firing first, as illumos reserves before the predicate.
	const bool emit = c.records_firing();
	if (emit && !st.buf->reserve(std::max<uint32_t>(c.size, sizeof(dtrace_rechdr_t)), fe.cpu,
				     e.kind == probe_kind::end))
		return;

	if (c.predicate) {
		if (!r.run(*c.predicate)) {
			report_fault(st, fe, 0, r);
			return;
		}
		if (ctx.rval == 0)
			return;
	}

	std::vector<uint8_t> out(std::max<uint32_t>(c.size, sizeof(dtrace_rechdr_t)), 0);
	dtrace_rechdr_t hdr{e.ep.epid, static_cast<uint32_t>(fe.timestamp >> 32),
			    static_cast<uint32_t>(fe.timestamp)};
	std::memcpy(out.data(), &hdr, sizeof(hdr));

	uint64_t spec = 0;				 // 0: the principal buffer
	std::vector<std::pair<uint64_t, bool>> spec_ops; // (id, commit?)
	bool exits = false;
	uint32_t idx = 0;

	for (const action &a : c.actions) {
		uint32_t base = idx;
		idx += static_cast<uint32_t>(a.keys.size() + std::max<size_t>(a.args.size(), 1));

		if (DTRACEACT_ISAGG(a.kind)) {
			if (a.aggid == 0 || a.aggid > st.prog.aggregations.size())
				continue;
			const aggregation &agg = st.prog.aggregations[a.aggid - 1];
			std::vector<uint8_t> key(agg.key_size, 0);
			for (size_t j = 0; j < a.keys.size(); j++) {
				const record &k = a.keys[j];
				if (!r.run(k.expr)) {
					report_fault(st, fe, base + static_cast<uint32_t>(j) + 1,
						     r);
					return;
				}
				uint32_t off = j < agg.key_offsets.size() ? agg.key_offsets[j] : 0;
				uint32_t size =
					k.size ? k.size
					       : (j < agg.keys.size() ? agg.keys[j].size : 8);
				if (off + size > key.size())
					continue;
				const value_type &t = j < agg.keys.size() ? agg.keys[j] : k.type;
				if (!r.write_value(t, ctx.rval, key.data() + off, size)) {
					report_fault(st, fe, base + static_cast<uint32_t>(j) + 1,
						     r);
					return;
				}
			}
			int64_t val = 0, incr = 1;
			for (size_t j = 0; j < a.args.size() && j < 2; j++) {
				if (!r.run(a.args[j].expr)) {
					report_fault(
						st, fe,
						base + static_cast<uint32_t>(a.keys.size() + j) + 1,
						r);
					return;
				}
				(j == 0 ? val : incr) = static_cast<int64_t>(ctx.rval);
			}
			// dif_agg.h: the arithmetic dtrace.ko and the BPF library share.
			const auto np = static_cast<uint32_t>(agg.params.size());
			// The program's word count is what the consumer expects;
			// the function's only when it is missing.
			const uint32_t nwords =
				agg.nwords != 0 ? agg.nwords
						: dif_agg_nwords(agg.func, agg.params.data(), np);
			auto found = st.aggs.find({a.aggid, key});
			if (found == st.aggs.end()) {
				// A new key takes its bytes of the aggregation buffer
				// (illumos dtrace_aggregate(): the key, the value and a
				// dtrace_aggkey_t); without room it is an aggregation drop.
				uint64_t need = bytes8(key.size()) + nwords * 8ull + k_aggkey_bytes;
				if (st.agg_bytes + need > st.aggsize) {
					st.agg_drops[fe.cpu]++;
					continue;
				}
				st.agg_bytes += need;
				found = st.aggs.try_emplace({a.aggid, std::move(key)}).first;
				found->second.resize(nwords);
				dif_agg_init(agg.func, found->second.data(), nwords);
			}
			std::vector<int64_t> &v = found->second;
			dif_agg_apply(agg.func, agg.params.data(), np, v.data(),
				      static_cast<uint32_t>(v.size()), val, incr);
			continue;
		}

		for (size_t j = 0; j < a.args.size(); j++) {
			const record &rec = a.args[j];
			uint32_t which = base + static_cast<uint32_t>(a.keys.size() + j) + 1;
			if (!r.run(rec.expr)) {
				report_fault(st, fe, which, r);
				return;
			}
			uint64_t v = ctx.rval;
			if (j == 0) {
				switch (a.kind) {
				case DTRACEACT_SPECULATE:
					if (v > st.specs.size()) {
						r.fault = DTRACEFLT_ILLOP;
						r.illval = v;
						r.fault_off = -1;
						report_fault(st, fe, which, r);
						return;
					}
					// No such or no active speculation: the
					// firing is dropped silently (illumos).
					if (v == 0 ||
					    st.specs[v - 1].st != spec_buffer::state::active)
						return;
					spec = v;
					break;
				case DTRACEACT_COMMIT:
				case DTRACEACT_DISCARD:
					if (v > st.specs.size()) {
						r.fault = DTRACEFLT_ILLOP;
						r.illval = v;
						r.fault_off = -1;
						report_fault(st, fe, which, r);
						return;
					}
					spec_ops.emplace_back(v, a.kind == DTRACEACT_COMMIT);
					break;
				case DTRACEACT_EXIT: exits = true; break;
				case DTRACEACT_CHILL:
					if (!chill(st, fe, v)) {
						r.fault = DTRACEFLT_ILLOP;
						r.illval = 0;
						r.fault_off = -1;
						report_fault(st, fe, which, r);
						return;
					}
					break;
				default: break;
				}
			}
			if (!a.records || rec.size == 0 ||
			    static_cast<uint64_t>(rec.offset) + rec.size > out.size())
				continue;
			if (!r.write_value(rec.type, v, out.data() + rec.offset, rec.size)) {
				report_fault(st, fe, which, r);
				return;
			}
		}
	}

	// The firing is kept.
	if (spec != 0) {
		spec_buffer &sb = st.specs[spec - 1];
		if (sb.used + out.size() > st.specsize) {
			st.spec_drops[fe.cpu]++;
		} else {
			sb.used += out.size();
			sb.firings.push_back({fe.cpu, std::move(out), {}});
		}
	} else if (emit) {
		st.buf->put(std::move(out), fe.cpu, e.kind == probe_kind::end);
	}
	if (exits)
		st.exiting = true;
	for (auto [id, commit] : spec_ops) {
		if (id == 0)
			continue;
		spec_buffer &sb = st.specs[id - 1];
		if (commit)
			for (buf_event &ev : sb.firings)
				st.buf->put(std::move(ev.bytes), ev.cpu);
		sb.firings.clear();
		sb.used = 0;
		sb.st = spec_buffer::state::inactive;
	}
}

void report_fault(state &st, firing_env &fe, uint32_t action, const ecb_run &r)
{
	fault_report f;
	f.epid = fe.e->ep.epid;
	f.action = action;
	f.offset = r.fault_off;
	f.code = r.fault;
	f.illval = r.illval;
	if (st.in_error || fe.e->kind == probe_kind::error) {
		// A fault in an ERROR clause is only counted (illumos
		// dts_dblerrors: "N errors in ERROR probe enabling").
		st.dblerrors++;
		return;
	}
	uint32_t error_id = 0;
	for (const ecb &e : st.ecbs)
		if (e.kind == probe_kind::error)
			error_id = e.ep.probe_id;
	// dtrace:::ERROR's clauses first, the fault itself after them:
	// libdtrace's own ERROR enabling (which prints the message) is
	// enabled by dtrace_go(), after the program's, so its EPID is last.
	if (error_id != 0) {
		// ERROR is a probe firing of its own: keep this firing's clause-locals.
		std::vector<uint64_t> locals = st.locals;
		std::vector<uint8_t> lmem(st.varmem.begin() +
						  static_cast<ptrdiff_t>(st.locals_mem_off),
					  st.varmem.end());
		st.in_error = true;
		fire(st, error_id,
		     {0, f.epid, f.action, static_cast<uint64_t>(f.offset), f.code, f.illval, 0, 0,
		      0, 0});
		st.in_error = false;
		st.locals = locals;
		std::copy(lmem.begin(), lmem.end(),
			  st.varmem.begin() + static_cast<ptrdiff_t>(st.locals_mem_off));
	}
	st.buf->put_fault(f, fe.cpu);
}

} // namespace

void fire(state &st, uint32_t probe_id, const std::array<uint64_t, 10> &args)
{
	firing_env fe;
	fe.st = &st;
	fe.args = args;
	fe.timestamp = now_ns();
	int cpu = sched_getcpu();
	fe.cpu = cpu < 0 ? 0 : static_cast<uint32_t>(cpu);
	// Clause-locals live for one probe firing, across its clauses (the
	// Dynamic Tracing Guide's clause.d example relies on it).
	reset_clause_state(st);
	for (const ecb &e : st.ecbs) {
		if (e.ep.probe_id != probe_id)
			continue;
		// Once exit() has run the state is draining: as illumos
		// dtrace_probe(), only dtrace:::END and dtrace:::ERROR
		// enablings are processed any more -- not the later clauses
		// of this firing, not further BEGIN clauses.
		if (st.exiting && e.kind != probe_kind::end && e.kind != probe_kind::error)
			break;
		fe.e = &e;
		run_ecb(st, fe);
	}
	if (st.have_dstate)
		dif_dstate_clean(&st.dstate);
}

} // namespace dt::engines::user
