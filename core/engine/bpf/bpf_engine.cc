// SPDX-License-Identifier: MIT
// The bpf engine (dtrace/engine.hpp): D programs translated to BPF
// (translate.hpp), run in the kernel, consumed here.
//
//   enable(program)  match each clause's descriptions (registry) ─► ECBs
//                    in clause, description, probe-id order (as the user
//                    engine numbers them); each probe's plugin says how to
//                    attach it (bpf hook) ─► ECBs grouped by attach point
//                    (few system calls on sys_enter/sys_exit: the number
//                    tested first, probe_spec::early_filters; or each
//                    probe at its own event, attach.hpp use_own_points());
//                    plan() ─► maps (maps.hpp), dt_probes and EPID tables
//                    filled; one program per group, plus BEGIN and END
//                    (raw_tp programs run by the consumer), translated and
//                    loaded (load.hpp); a group ending an interval
//                    also gets dt_pair and its begin's program (pair.hpp)
//   go()             every group attached (attach.hpp); BEGIN run on this
//                    CPU (it sets ACTIVE; without BEGIN we do)
//   wait(t)          in slices of at most 10 ms: sleep in epoll on the
//                    ring (programs wake it only past a quarter full)
//                    and collect it, look at dt_status, read the
//                    aggregation maps once aggrate has passed (kept for
//                    drain); returns at t, on a signal, once exit() ran,
//                    or once a quarter of bufsize is collected (ring.hpp)
//   stop()           ACTIVE ─► DRAINING; detach everything; END run (it
//                    sets STOPPED; without END we do)
//   add_probes()     after go(), ECBs of objects mapped later (dlopen):
//                    grouped, loaded and attached as above, their EPIDs
//                    in the room enable() left in dt_probes
//                    (engine_settings::epid_reserve); remove_probes()
//                    closes the groups of ECBs whose object went
//   drain(sink)      as the user engine, in dtrace_work()'s order: status
//                    drops (speculative and failed speculations, dynamic,
//                    dblerror; the ring collected first), aggregation
//                    deltas (aggs.hpp: exact snapshots by generation, at
//                    aggrate, as dtrace_aggregate_snap(), and always once
//                    exiting or stopped; the caller drains at switchrate)
//                    and their drops, the principal
//                    buffer's firings and faults (ring.hpp), principal drops
//
// Speculations: dt_spec (nspec, specsize; spec_buffer.hpp) and tagged
// ring samples the ring reader holds per speculation until commit/discard.
//
// Probe semantics: BEGIN fires before any probe (programs run only once
// ACTIVE), END after the last (everything is detached first), and ERROR's
// clauses are compiled into every program's fault path.
#include "../buffer_sizes.hpp"
#include "../options.hpp"
#include "aggs.hpp"
#include "attach.hpp"
#include "load.hpp"
#include "maps.hpp"
#include "pair.hpp"
#include "ring.hpp"
#include "spec_buffer.hpp"
#include "tracer_text.hpp"
#include "translate.hpp"
#include "util/assert.hpp"

#include <dtrace/engine.hpp>
#include <dtrace/provider.hpp>
#include <dtrace/ustack_capture.hpp>

#include <bpf/bpf.h>

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <span>

namespace dt::engines::bpf {
namespace {

constexpr uint64_t k_slice_ns = 10'000'000; // wait()'s polling slice
constexpr uint64_t k_capture_aggrate_ns = 100'000'000;

// Does an aggregation of p have a ustack() key that holds a capture
// (registers and stack, dtrace/ustack_capture.hpp) rather than pcs?
bool has_ustack_capture_key(const program &p)
{
	uint32_t ub = ustack_bytes(p.options);
	if (ub == 0)
		return false;
	uint32_t want = ustack_capture_size(std::min(ub, k_ustack_key_bytes));
	for (const aggregation &a : p.aggregations)
		for (const value_type &t : a.keys)
			if (t.k == value_type::kind::ustack && t.size >= want)
				return true;
	return false;
}
constexpr uint32_t k_max_filter = 1 << 16; // EPID tables' largest index

uint64_t mono_ns()
{
	struct timespec ts {};
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
	       static_cast<uint64_t>(ts.tv_nsec);
}

uint32_t this_cpu()
{
	int c = sched_getcpu();
	return c < 0 ? 0 : static_cast<uint32_t>(c);
}

// One ECB on a kernel probe, and how its probe attaches.
struct member {
	uint32_t epid = 0;
	uint32_t clause = 0;
	bool has_filter = false;
	uint32_t filter = 0;
};

// One program: every ECB whose probe attaches at the same point.
struct group {
	attach_point at;
	std::vector<member> members; // in EPID order
	std::string first_probe;     // for messages
	unique_fd prog;
	std::vector<unique_fd> links; // closing them detaches
	// An interval's end (pair.hpp): dt_pair and the begin's program.
	unique_fd pair_map, pair_prog;
	std::vector<unique_fd> pair_links;
};

class bpf_engine final : public engine {
public:
	explicit bpf_engine(const engine_settings &s) : settings_(s) {}
	~bpf_engine() override
	{
		for (group &g : groups_) {
			g.links.clear();
			g.pair_links.clear();
		}
	}

	std::string_view name() const override { return "bpf"; }
	using engine::enable;
	std::vector<enabled_probe> enable(const program &p, const enabling &en) override;
	void go() override;
	void stop() override;
	void wait(std::chrono::nanoseconds t) override;
	void drain(engine_sink &sink) override;
	bool exiting() const override;
	bool adds_probes() const override { return settings_.epid_reserve != 0; }
	void add_probes(const enabling &more) override;
	void remove_probes(const std::vector<uint32_t> &epids) override;
	// Has process `pid` exited (gone, or a zombie)?
	static bool process_exited(int32_t pid);

protected:
	const engine_settings &settings() const override { return settings_; }

private:
	engine_settings settings_;
	program prog_;
	std::vector<enabled_probe> eps_;
	std::vector<group> groups_;
	std::vector<uint32_t> begin_, end_, error_; // EPIDs
	std::set<uint32_t> error_set_;

	resolved_options opts_{}; // read_options()
	buffer_needs needs_{};	  // enable(): what the ECBs record
	// Option cpu: probes fire only on this CPU (perf events open there,
	// every other program returns at its first instructions), and
	// BEGIN and END run there.
	std::optional<uint32_t> cpu_;
	uint64_t spec_unavail_seen_ = 0;
	plan_options popts_;
	layout layout_;
	engine_maps maps_;
	unique_fd begin_prog_, end_prog_;
	std::unique_ptr<ring_reader> ring_;
	std::vector<dt_bpf_cpustate> seen_;  // drop counters delivered so far
	uint64_t last_agg_ = 0;		     // when they were last read (0: never)
	std::vector<agg_data> pending_aggs_; // read, not yet drained
	uint32_t agg_gen_ = 0;		     // dt_aggen (aggs.hpp)
	program_barrier agg_barrier_;
	bool aggs_quiet_ = false; // stopped, and no program can still run
	bool started_ = false, stopped_ = false;
	// The EPIDs the probe map has room for.
	uint32_t epid_capacity_ = 0;
	tracer_text tracer_text_; // kallsyms, read once a program needs it

	void read_options();
	// The ECBs of `en` into eps_ (an EPID known already is not added
	// again) and into groups from groups_[from] on.
	void match(const enabling &en, size_t from = 0);
	// More single kprobes than trampolines_max() where the kernel has
	// kprobe_multi: one program and one link per kind (entry, return)
	// for all of them, the function told by the attach cookie
	// (attach.hpp kprobe_multi_of()). DTRACE_BPF_KPROBE_MULTI=0: never.
	void merge_kprobes(size_t from);
	// More single uprobes than trampolines_max() where the kernel has
	// uprobe_multi: one program and one link per object, process and
	// kind for all of them, the probe told by the attach cookie
	// (attach.hpp uprobe_multi_of()); a glob over a library would
	// otherwise open a perf event and load a program per function.
	// DTRACE_BPF_UPROBE_MULTI=0: never; =1: whenever two or more share an
	// object.
	void merge_uprobes(size_t from);
	probe_spec spec_for(const group &g);
	probe_spec consumer_spec(gate when, const std::vector<uint32_t> &epids) const;
	unique_fd load(const probe_spec &spec, enum bpf_prog_type type, const std::string &name,
		       load_target lt = {});
	// A group's program, loaded for its attach point; a fentry/fexit
	// program the kernel refuses becomes a kprobe/kretprobe one
	// (attach.hpp kprobe_fallback()).
	void load_group(group &g, size_t i);
	// Attach a group; a trampoline the kernel refuses: again as a kprobe.
	void attach_group(group &g, size_t i);
	// Run BEGIN or END until the activity leaves `from` (a program that
	// was preempted on that CPU makes the run a nested drop: try again).
	void run_consumer_probe(int prog_fd, uint64_t from);
	void report_drops(engine_sink &sink, bool principal);
	bool destructive_allowed() const
	{
		return !prog_.destructive() || settings_.destructive || opts_.destructive;
	}
	bool aggs_due() const { return last_agg_ == 0 || mono_ns() - last_agg_ >= opts_.aggrate; }
	// Whether a clause trunc()s or clear()s an aggregation: then every
	// drain takes the maps, so that the consumer has every update written
	// before such a record when it acts on it (illumos snapshots before
	// it processes the records of a buffer).
	bool trims_aggs() const
	{
		for (const clause &c : prog_.clauses)
			for (const action &a : c.actions)
				if (a.kind == DTRACEACT_LIBACT &&
				    (a.libact == DT_ACT_TRUNC || a.libact == DT_ACT_CLEAR))
					return true;
		return false;
	}
	void snap_aggs();
};

// Keeps what drain_aggregation() delivers, for a later drain.
class agg_collector final : public engine_sink {
public:
	explicit agg_collector(std::vector<agg_data> &out) : out_(out) {}
	void records(std::span<const uint8_t>, uint32_t) override {}
	void aggregation(const agg_data &d) override { out_.push_back(d); }
	void fault(const fault_report &) override {}
	void drops(std::string_view, uint64_t, uint32_t) override {}

private:
	std::vector<agg_data> &out_;
};

void bpf_engine::read_options()
{
	opts_ = engine_options(prog_);
	popts_.strsize = opts_.strsize;
	popts_.dynvarsize = opts_.dynvarsize;
	popts_.aggsize = opts_.aggsize;
	cpu_.reset();
	if (auto c = prog_.option("cpu"); c && !option_unsets("cpu", *c))
		cpu_ = static_cast<uint32_t>(std::strtoul(c->c_str(), nullptr, 0));
	// An aggregation keyed by ustack() captures (docs/ustack.md) takes a
	// map entry per firing until the consumer reads it: read it ten times
	// a second unless -x aggrate says otherwise.
	if (!prog_.option("aggrate") && has_ustack_capture_key(prog_))
		opts_.aggrate = std::min<uint64_t>(opts_.aggrate, k_capture_aggrate_ns);
	if (opts_.bufpolicy != buffer_policy::switch_)
		throw engine_error("bufpolicy " + *prog_.option("bufpolicy") +
				   " is not supported by the bpf engine (it switches buffers)");
}

void bpf_engine::match(const enabling &en, size_t from)
{
	provider_registry &reg = registry();
	// Each kernel probe's ECB, where it attaches and where it could
	// attach on its own (own.kind NONE: nowhere); grouped below.
	struct pending {
		member m;
		attach_point at, own;
		const probe *pr;
	};
	std::vector<pending> pend;
	DT_ASSERT(en.probes.size() == en.eps.size() && en.fires.size() == en.eps.size());
	for (size_t i = 0; i < en.eps.size(); i++) {
		const enabled_probe &ep = en.eps[i];
		const probe *pr = en.probes[i];
		const uint32_t ci = ep.clause;
		const probe_desc &pd = pr->desc;
		DT_ASSERT(ep.epid >= 1 && ep.epid <= eps_.size() + 1);
		if (ep.epid == eps_.size() + 1)
			eps_.push_back(ep);
		const probe_fire &f = en.fires[i];
		if (f.kind == fire_kind::consumer) {
			if (f.consumer == consumer_probe::begin)
				begin_.push_back(ep.epid);
			else if (f.consumer == consumer_probe::end)
				end_.push_back(ep.epid);
			else if (f.consumer == consumer_probe::error)
				error_.push_back(ep.epid);
			continue;
		}
		dt_bpf_attach_t a{};
		std::string why;
		int rc = reg.bpf_attach(*pr, a, why);
		if (rc == -ENOSYS)
			throw engine_error("the bpf engine cannot enable " + pd.str() + ": the " +
						   pr->prov->name() +
						   " provider does not support it",
					   ci);
		if (rc < 0)
			throw engine_error(!why.empty() ? why
							: "cannot enable " + pd.str() + ": " +
								  errno_text(rc),
					   rc == -ENOTSUP ? errc::unsupported : errc::enable, ci);
		if (cpu_ && a.kind == DT_BPF_ATTACH_PERF_EVENT)
			a.cpu = static_cast<int32_t>(*cpu_); // profile-N and tick-N alike
		attach_point at = attach_point_of(a);
		if (std::string no = unsupported(at); !no.empty())
			throw engine_error("cannot enable " + pd.str() + ": " + no,
					   errc::unsupported, ci);
		if (a.has_filter != 0 && at.ctx == DT_BPF_CTX_RAW && at.filter_arg < 0 &&
		    at.filter_steps.empty())
			throw engine_error("cannot enable " + pd.str() +
						   ": the bpf engine cannot compute the " +
						   pr->prov->name() + " provider's filter",
					   ci);
		member m{ep.epid, ci, a.has_filter != 0, 0};
		if (m.has_filter) {
			if (a.filter < 0 || a.filter >= k_max_filter)
				throw engine_error("cannot enable " + pd.str() + ": filter value " +
							   std::to_string(a.filter) +
							   " out of range",
						   ci);
			m.filter = static_cast<uint32_t>(a.filter);
		}
		attach_point own = own_point_of(a);
		if (own.kind != DT_BPF_ATTACH_NONE) {
			own.errno_src = f.errno_src == errno_source::return_arg0
						? DT_ERRNO_RETURN_ARG0
						: DT_ERRNO_NONE;
			if (!unsupported(own).empty())
				own.kind = DT_BPF_ATTACH_NONE;
		}
		pend.push_back({m, at, own, pr});
	}
	// A shared point with few filter values enabled: each probe at its
	// own event instead (attach.hpp use_own_points()).
	std::map<attach_point, std::pair<std::vector<uint32_t>, bool>> shared;
	for (const pending &x : pend) {
		auto &[filters, all_own] =
			shared.try_emplace(x.at, std::vector<uint32_t>{}, true).first->second;
		filters.push_back(x.m.filter);
		all_own = all_own && x.m.has_filter && x.own.kind != DT_BPF_ATTACH_NONE;
	}
	std::map<attach_point, size_t> index;
	const auto mine = [&](auto &&pred) {
		return static_cast<size_t>(std::count_if(
			groups_.begin() + static_cast<std::ptrdiff_t>(from), groups_.end(), pred));
	};
	for (pending &x : pend) {
		const auto &[filters, all_own] = shared.at(x.at);
		if (use_own_points(filters, all_own)) {
			x.at = x.own;
			limit_record_args(x.at, reg.args(*x.pr).size());
			x.m.has_filter = false;
			x.m.filter = 0;
		}
		auto [it, fresh] = index.try_emplace(x.at, groups_.size());
		if (fresh) {
			groups_.emplace_back();
			groups_.back().at = x.at;
			groups_.back().first_probe = x.pr->desc.str();
		}
		groups_[it->second].members.push_back(x.m);
	}
	// Many trampolines: kprobes attach sooner (attach.hpp).
	if (mine([](const group &g) { return is_trampoline(g.at); }) > trampolines_max() &&
	    have_kprobe_pmu())
		for (size_t i = from; i < groups_.size(); i++)
			if (is_trampoline(groups_[i].at))
				groups_[i].at = kprobe_fallback(groups_[i].at);
	merge_kprobes(from);
	merge_uprobes(from);
	error_set_.insert(error_.begin(), error_.end());
}

// The attach points of `part`, in order (kprobe_multi_of(), uprobe_multi_of()).
std::vector<const attach_point *> points_of(std::span<group *const> part)
{
	std::vector<const attach_point *> points;
	for (const group *g : part)
		points.push_back(&g->at);
	return points;
}

// The groups of `part` as one group at `at`, a multi link whose attach
// cookie cookie[i] stands for part[i]: each member's filter.
group merged_group(std::span<group *const> part, attach_point at,
		   const std::vector<uint32_t> &cookie)
{
	group m;
	m.at = std::move(at);
	m.first_probe = part.front()->first_probe;
	for (size_t i = 0; i < part.size(); i++)
		for (member x : part[i]->members) {
			x.has_filter = true;
			x.filter = cookie[i];
			m.members.push_back(x);
		}
	std::sort(m.members.begin(), m.members.end(),
		  [](const member &a, const member &b) { return a.epid < b.epid; });
	return m;
}

void bpf_engine::merge_kprobes(size_t from)
{
	const char *off = std::getenv("DTRACE_BPF_KPROBE_MULTI");
	if (off != nullptr && std::string_view(off) == "0")
		return;
	const auto first = groups_.begin() + static_cast<std::ptrdiff_t>(from);
	auto singles = static_cast<size_t>(std::count_if(
		first, groups_.end(), [](const group &g) { return is_single_kprobe(g.at); }));
	if (singles <= trampolines_max())
		return;
	const bool debug = std::getenv("DTRACE_DEBUG") != nullptr;
	if (int err = kprobe_multi_errno(); err != 0) {
		if (debug)
			std::fprintf(
				stderr,
				"dtrace: bpf engine: %zu kprobes, one each: no kprobe_multi (%s)\n",
				singles, errno_text(err).c_str());
		return;
	}
	if (debug)
		std::fprintf(stderr, "dtrace: bpf engine: %zu kprobes through kprobe_multi links\n",
			     singles);
	std::vector<group> out;
	for (int32_t kind : {DT_BPF_ATTACH_KPROBE, DT_BPF_ATTACH_KRETPROBE}) {
		std::vector<group *> mine;
		for (size_t i = from; i < groups_.size(); i++)
			if (is_single_kprobe(groups_[i].at) && groups_[i].at.kind == kind)
				mine.push_back(&groups_[i]);
		// One link per k_max_filter functions: the cookie is the filter.
		for (size_t lo = 0; lo < mine.size(); lo += k_max_filter) {
			std::span<group *const> part(
				mine.data() + lo, std::min(mine.size() - lo, size_t{k_max_filter}));
			std::vector<uint32_t> cookie;
			attach_point at = kprobe_multi_of(points_of(part), cookie);
			out.push_back(merged_group(part, std::move(at), cookie));
		}
	}
	groups_.erase(std::remove_if(first, groups_.end(),
				     [](const group &g) { return is_single_kprobe(g.at); }),
		      groups_.end());
	for (group &g : out)
		groups_.push_back(std::move(g));
}

void bpf_engine::merge_uprobes(size_t from)
{
	const char *env = std::getenv("DTRACE_BPF_UPROBE_MULTI");
	const std::string_view want = env != nullptr ? env : "";
	if (want == "0")
		return;
	const auto first = groups_.begin() + static_cast<std::ptrdiff_t>(from);
	auto singles = static_cast<size_t>(std::count_if(
		first, groups_.end(), [](const group &g) { return is_single_uprobe(g.at); }));
	if (singles < 2 || (want != "1" && singles <= trampolines_max()))
		return;
	const bool debug = std::getenv("DTRACE_DEBUG") != nullptr;
	if (int err = uprobe_multi_errno(); err != 0) {
		if (debug)
			std::fprintf(
				stderr,
				"dtrace: bpf engine: %zu uprobes, one each: no uprobe_multi (%s)\n",
				singles, errno_text(err).c_str());
		return;
	}
	// The points that may share a link: equal but for the offset.
	std::map<attach_point, std::vector<group *>> buckets;
	for (size_t i = from; i < groups_.size(); i++) {
		group &g = groups_[i];
		if (!is_single_uprobe(g.at))
			continue;
		attach_point key = g.at;
		key.offset = 0;
		buckets[key].push_back(&g);
	}
	std::vector<group> out;
	size_t merged = 0;
	for (auto &[key, mine] : buckets) {
		if (mine.size() < 2)
			continue;
		// One link per k_max_filter offsets: the cookie is the filter.
		for (size_t lo = 0; lo < mine.size(); lo += k_max_filter) {
			std::span<group *const> part(
				mine.data() + lo, std::min(mine.size() - lo, size_t{k_max_filter}));
			std::vector<uint32_t> cookie;
			attach_point at = uprobe_multi_of(points_of(part), cookie);
			out.push_back(merged_group(part, std::move(at), cookie));
			for (group *g : part)
				g->at.kind = DT_BPF_ATTACH_NONE; // merged: dropped below
			merged += part.size();
		}
	}
	if (debug)
		std::fprintf(stderr,
			     "dtrace: bpf engine: %zu uprobes through %zu uprobe_multi links\n",
			     merged, out.size());
	groups_.erase(
		std::remove_if(first, groups_.end(),
			       [](const group &g) { return g.at.kind == DT_BPF_ATTACH_NONE; }),
		groups_.end());
	for (group &g : out)
		groups_.push_back(std::move(g));
}

probe_spec bpf_engine::consumer_spec(gate when, const std::vector<uint32_t> &epids) const
{
	probe_spec s;
	s.ctx = ctx_kind::raw_tp;
	s.when = when;
	s.raw_nargs = 0;
	for (uint32_t e : epids)
		s.ecbs.push_back({eps_[e - 1].clause, e, -1, 0});
	for (uint32_t e : error_)
		s.errors.push_back({eps_[e - 1].clause, e, -1, 0});
	return s;
}

probe_spec bpf_engine::spec_for(const group &g)
{
	probe_spec s;
	s.ctx = ctx_kind_of(g.at);
	s.when = gate::probe;
	s.raw_nargs = g.at.nargs;
	std::copy(g.at.argmap.begin(), g.at.argmap.end(), s.argmap);
	std::copy(g.at.argfmt.begin(), g.at.argfmt.end(), s.argfmt);
	s.filter_arg = g.at.filter_arg;
	s.filter_shift = g.at.filter_shift;
	s.filter_mask = g.at.filter_mask;
	s.filter_steps = g.at.filter_steps;
	s.filter_cookie = !g.at.multi.empty() || !g.at.multi_offsets.empty();
	if (g.at.kind == DT_BPF_ATTACH_UPROBE || g.at.kind == DT_BPF_ATTACH_URETPROBE)
		s.pid = g.at.pid;
	s.cpu = cpu_ ? static_cast<int32_t>(*cpu_) : -1;
	s.user_entry = g.at.kind == DT_BPF_ATTACH_UPROBE && g.at.ctx == DT_BPF_CTX_REGS;
	s.errno_arg0 = g.at.errno_src == DT_ERRNO_RETURN_ARG0;
	s.kernel_func = g.at.kind == DT_BPF_ATTACH_FENTRY || g.at.kind == DT_BPF_ATTACH_FEXIT ||
			g.at.kind == DT_BPF_ATTACH_KPROBE || g.at.kind == DT_BPF_ATTACH_KRETPROBE;
	s.usdt = g.at.usdt;
	s.arg_steps_index = g.at.arg_steps_index;
	s.arg_steps = g.at.arg_steps;
	if (g.pair_map) {
		s.pair_map_fd = g.pair_map.get();
		s.pair_begin_nargs = g.at.begin_nargs;
		s.pair_end_key = g.at.end_key;
	}

	// Filtered ECBs: one EPID table per clause (another when one clause
	// holds the same filter twice: the probe matched by two descriptions),
	// all interleaved in one map.
	struct table {
		uint32_t clause, first_epid;
		std::map<uint32_t, uint32_t> slots; // filter -> EPID
	};
	std::vector<table> tables;
	std::vector<std::pair<uint32_t, ecb_ref>> refs; // (sort key, ref)
	for (const member &m : g.members) {
		if (!m.has_filter) {
			refs.emplace_back(m.epid, ecb_ref{m.clause, m.epid, -1, 0});
			continue;
		}
		table *t = nullptr;
		for (table &x : tables)
			if (x.clause == m.clause && !x.slots.contains(m.filter)) {
				t = &x;
				break;
			}
		if (t == nullptr) {
			tables.push_back({m.clause, m.epid, {}});
			t = &tables.back();
		}
		t->slots[m.filter] = m.epid;
	}
	// One map holds every table of the program (a program may use at most
	// 64 maps): table i's slot for filter f is f * stride + i.
	if (!tables.empty()) {
		uint32_t filters = 0;
		for (const table &t : tables)
			filters = std::max(filters, t.slots.rbegin()->first + 1);
		const auto stride = static_cast<uint32_t>(tables.size());
		if (uint64_t{filters} * stride > (uint64_t{1} << 26))
			throw engine_error("bpf engine: too many filtered clauses on " +
					   g.first_probe);
		const uint32_t entries = filters * stride;
		int fd = create_epid_table(maps_, entries);
		for (uint32_t i = 0; i < stride; i++) {
			const table &t = tables[i];
			for (auto [filter, epid] : t.slots)
				set_epid(fd, filter * stride + i, epid);
			ecb_ref r{t.clause, 0, fd, entries};
			r.epid_map_stride = stride;
			r.epid_map_index = i;
			refs.emplace_back(t.first_epid, r);
		}
	}
	// Few system calls on a shared sys_enter/sys_exit program: the others
	// return at its first instructions.
	if ((g.at.ctx == DT_BPF_CTX_SYS_ENTER || g.at.ctx == DT_BPF_CTX_SYS_EXIT) &&
	    std::all_of(g.members.begin(), g.members.end(),
			[](const member &m) { return m.has_filter; })) {
		std::set<uint32_t> fs;
		for (const member &m : g.members)
			fs.insert(m.filter);
		if (fs.size() <= k_early_filters_max)
			s.early_filters.assign(fs.begin(), fs.end());
	}
	std::stable_sort(refs.begin(), refs.end(),
			 [](const auto &a, const auto &b) { return a.first < b.first; });
	for (auto &[k, r] : refs)
		s.ecbs.push_back(r);
	for (uint32_t e : error_)
		s.errors.push_back({eps_[e - 1].clause, e, -1, 0});
	// A raw tracepoint's stack begins in the tracer: the program skips
	// its frames (tracer_text.hpp) where a clause looks at the stack.
	auto reads = [&](const ecb_ref &r) {
		return reads_kernel_stack(prog_.clauses.at(r.clause));
	};
	if (g.at.kind == DT_BPF_ATTACH_RAW_TRACEPOINT &&
	    (std::ranges::any_of(s.ecbs, reads) || std::ranges::any_of(s.errors, reads)))
		s.tracer_text = tracer_text_.of(g.at.target);
	return s;
}

unique_fd bpf_engine::load(const probe_spec &spec, enum bpf_prog_type type, const std::string &name,
			   load_target lt)
{
	translated t;
	try {
		t = translate(prog_, layout_, spec, maps_.fds());
	} catch (const translate_error &e) {
		throw engine_error(e.what());
	}
	return load_program(type, name, prog_, t, lt.type, lt.btf_id);
}

void bpf_engine::load_group(group &g, size_t i)
{
	const std::string name = "dt_p" + std::to_string(i + 1);
	if (!g.at.begin_target.empty()) {
		g.pair_map = create_pair_map();
		g.pair_prog = load_pair_begin(g.at, g.pair_map.get(), g.first_probe);
	}
	if (is_trampoline(g.at)) {
		try {
			g.prog = load(spec_for(g), prog_type_of(g.at), name, load_target_of(g.at));
			return;
		} catch (const privilege_error &) {
			throw;
		} catch (const engine_error &) {
			// Not this function's trampoline (too many arguments
			// for this kernel's, a function it will not trace):
			// its kprobe, whose failure is the one reported.
			g.at = kprobe_fallback(g.at);
		}
	}
	g.prog = load(spec_for(g), prog_type_of(g.at), name, load_target_of(g.at));
}

void bpf_engine::attach_group(group &g, size_t i)
{
	// The begin first: an end seen before it finds no entry.
	if (g.pair_prog)
		g.pair_links = attach(pair_begin_point(g.at), g.pair_prog.get(), g.first_probe);
	if (is_trampoline(g.at)) {
		try {
			g.links = attach(g.at, g.prog.get(), g.first_probe);
			return;
		} catch (const engine_error &) {
			g.at = kprobe_fallback(g.at);
			g.prog = load(spec_for(g), prog_type_of(g.at),
				      "dt_p" + std::to_string(i + 1));
		}
	}
	g.links = attach(g.at, g.prog.get(), g.first_probe);
}

std::vector<enabled_probe> bpf_engine::enable(const program &p, const enabling &en)
{
	prog_ = p;
	read_options();
	match(en);
	needs_ = buffer_needs_of(prog_, en);
	opts_.bufsize = principal_bufsize(needs_, opts_);

	try {
		layout_ = plan(prog_, popts_);
	} catch (const translate_error &e) {
		throw engine_error(e.what());
	}
	epid_capacity_ = static_cast<uint32_t>(eps_.size()) + settings_.epid_reserve;
	maps_ = create_maps(layout_, epid_capacity_, ring_size(opts_.bufsize));
	maps_.spec = create_spec_map(opts_.nspec, uses_speculations(prog_));
	if (opts_.maxframes != 0)
		set_maxframes(maps_, opts_.maxframes);
	for (const enabled_probe &ep : eps_)
		set_probe(maps_, ep.epid, ep);

	// A destructive program without -w is refused by go(), as by
	// dtrace_go(): nothing of it will run, so nothing is loaded (the
	// kernel may not even allow its helpers: bpf_probe_write_user).
	const bool refused = !destructive_allowed();
	for (size_t i = 0; i < groups_.size() && !refused; i++)
		load_group(groups_[i], i);
	if (!begin_.empty() && !refused)
		begin_prog_ = load(consumer_spec(gate::begin, begin_), BPF_PROG_TYPE_RAW_TRACEPOINT,
				   "dt_begin");
	if (!end_.empty() && !refused)
		end_prog_ = load(consumer_spec(gate::end, end_), BPF_PROG_TYPE_RAW_TRACEPOINT,
				 "dt_end");

	seen_.assign(maps_.ncpus, dt_bpf_cpustate{});
	ring_ = std::make_unique<ring_reader>(
		maps_.ring.get(), opts_.bufsize,
		[this](uint32_t epid) { return error_set_.contains(epid); });
	ring_->set_specsize(opts_.specsize);
	return eps_;
}

void bpf_engine::run_consumer_probe(int prog_fd, uint64_t from)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		run_on_cpu(prog_fd, cpu_ ? *cpu_ : this_cpu());
		if (activity(maps_) != from)
			return;
		sched_yield();
	}
	throw engine_error(
		"bpf engine: dtrace:::" + std::string(from == DT_BPF_INACTIVE ? "BEGIN" : "END") +
		" could not run: its CPU stayed busy in probe context");
}

void bpf_engine::go()
{
	if (started_ || !ring_)
		return;
	// As illumos' dtrace_go() and the user engine: refused without -w.
	if (!destructive_allowed())
		throw engine_error("Destructive actions not allowed");
	// illumos dtrace_state_go(): buffers too small for what the ECBs
	// record are refused (buffer_sizes.hpp).
	check_buffer_sizes(needs_, opts_);
	// Option cpu: a CPU that is not online is refused, as on the user
	// engine (its sched_setaffinity()), before anything attaches.
	if (cpu_) {
		const std::vector<uint32_t> on = online_cpus();
		if (std::find(on.begin(), on.end(), *cpu_) == on.end())
			throw engine_error(std::strerror(EINVAL));
	}
	for (size_t i = 0; i < groups_.size(); i++)
		attach_group(groups_[i], i);
	started_ = true;
	if (begin_prog_)
		run_consumer_probe(begin_prog_.get(), DT_BPF_INACTIVE);
	else
		set_activity(maps_, DT_BPF_ACTIVE);
}

void bpf_engine::stop()
{
	if (!started_ || stopped_)
		return;
	stopped_ = true;
	// No probe runs from here on (they run only when ACTIVE), then none
	// is attached; END comes after the last of them.
	uint64_t a = activity(maps_);
	if (a == DT_BPF_ACTIVE)
		set_activity(maps_, DT_BPF_DRAINING);
	for (group &g : groups_) {
		g.links.clear();
		g.pair_links.clear();
	}
	a = activity(maps_);
	if (a == DT_BPF_STOPPED)
		return;
	if (a == DT_BPF_INACTIVE) { // BEGIN never finished: END still runs
		set_activity(maps_, DT_BPF_DRAINING);
		a = DT_BPF_DRAINING;
	}
	if (end_prog_)
		run_consumer_probe(end_prog_.get(), a);
	else
		set_activity(maps_, DT_BPF_STOPPED);
}

// After go(): the new ECBs grouped as enable() groups them, their
// programs loaded and attached at once (the process waits, stopped, for
// it). A failure detaches what of `more` was attached.
void bpf_engine::add_probes(const enabling &more)
{
	DT_ASSERT(adds_probes());
	if (stopped_ || !destructive_allowed())
		return;
	for (const enabled_probe &ep : more.eps)
		if (ep.epid > epid_capacity_)
			throw engine_error("bpf engine: no room for more than " +
					   std::to_string(epid_capacity_) + " enabled probes");
	const size_t from = groups_.size();
	const size_t known = eps_.size();
	try {
		match(more, from);
		for (const enabled_probe &ep : more.eps) {
			eps_[ep.epid - 1] = ep;
			set_probe(maps_, ep.epid, ep);
		}
		for (size_t i = from; i < groups_.size(); i++) {
			load_group(groups_[i], i);
			if (started_)
				attach_group(groups_[i], i);
		}
	} catch (...) {
		groups_.resize(from);
		eps_.resize(known);
		throw;
	}
}

void bpf_engine::remove_probes(const std::vector<uint32_t> &epids)
{
	std::set<uint32_t> gone(epids.begin(), epids.end());
	// A group (one program, one link) goes when all its ECBs go: a
	// multi link over an object's functions goes with the object. The
	// probes of a process that has exited are detached off this thread
	// (close_later()).
	std::vector<unique_fd> later;
	std::erase_if(groups_, [&](group &g) {
		if (!std::all_of(g.members.begin(), g.members.end(),
				 [&](const member &m) { return gone.contains(m.epid); }))
			return false;
		if (g.at.pid > 0 && process_exited(g.at.pid)) {
			for (unique_fd &l : g.links)
				later.push_back(std::move(l));
			later.push_back(std::move(g.prog));
		}
		return true;
	});
	close_later(std::move(later));
}

bool bpf_engine::process_exited(int32_t pid)
{
	char path[32];
	std::snprintf(path, sizeof(path), "/proc/%d/stat", static_cast<int>(pid));
	FILE *f = std::fopen(path, "r");
	if (f == nullptr)
		return true;
	char buf[512];
	size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
	std::fclose(f);
	buf[n] = '\0';
	const char *r = std::strrchr(buf, ')');
	return r != nullptr && r[1] == ' ' && (r[2] == 'Z' || r[2] == 'X');
}

bool bpf_engine::exiting() const
{
	if (!started_)
		return false;
	try {
		uint64_t a = activity(maps_);
		return a == DT_BPF_DRAINING || a == DT_BPF_STOPPED;
	} catch (const engine_error &) {
		return true; // the status map is gone: nothing more will come
	}
}

void bpf_engine::wait(std::chrono::nanoseconds t)
{
	if (!started_ || stopped_ || exiting())
		return;
	uint64_t until = mono_ns() + static_cast<uint64_t>(std::max<int64_t>(t.count(), 0));
	for (;;) {
		uint64_t now = mono_ns();
		if (now >= until)
			return;
		uint64_t slice = std::min(until - now, k_slice_ns);
		int ms = static_cast<int>((slice + 999'999) / 1'000'000);
		if (ring_->poll(ms) == -EINTR)
			return; // a signal: the caller looks at it
		if (ring_->wants_drain() || exiting())
			return; // the principal buffer fills: drain it now
		if (aggs_due())
			snap_aggs();
	}
}

void bpf_engine::report_drops(engine_sink &sink, bool principal)
{
	std::vector<dt_bpf_cpustate> now = cpustates(maps_);
	std::map<uint32_t, uint64_t> extra;
	if (principal)
		extra = ring_->take_drops();
	for (uint32_t c = 0; c < now.size() && c < seen_.size(); c++) {
		dt_bpf_cpustate &was = seen_[c];
		const dt_bpf_cpustate &is = now[c];
		auto delta = [](uint64_t a, uint64_t b) { return a > b ? a - b : 0; };
		if (principal) {
			uint64_t n = delta(is.drops, was.drops) + extra[c];
			if (n != 0)
				sink.drops("principal", n, c);
			was.drops = is.drops;
			continue;
		}
		if (c == 0) {
			// Speculations (status totals, as illumos): drops, here
			// and in the consumer's spec buffers (specsize), then
			// failed speculation() calls.
			uint64_t n = 0;
			for (auto [cpu, k] : ring_->take_spec_drops())
				n += k;
			for (uint32_t k = 0; k < now.size() && k < seen_.size(); k++)
				n += delta(now[k].spec_drops, seen_[k].spec_drops);
			if (n != 0)
				sink.drops("speculative", n, 0);
			uint64_t u = spec_unavailable(maps_.spec.get());
			if (u > spec_unavail_seen_)
				sink.drops("speculative_unavail", u - spec_unavail_seen_, 0);
			spec_unavail_seen_ = u;
		}
		if (uint64_t n = delta(is.dyn_drops, was.dyn_drops))
			sink.drops("dynamic", n, c);
		if (uint64_t n = delta(is.dbl_errors, was.dbl_errors))
			sink.drops("dblerror", n, c);
		was.spec_drops = is.spec_drops;
		was.dyn_drops = is.dyn_drops;
		was.dbl_errors = is.dbl_errors;
	}
	for (auto &[c, n] : extra)
		if (c >= seen_.size() && n != 0)
			sink.drops("principal", n, c);
}

// Every aggregation map's deltas since the last read, kept for drain:
// switch the generation, wait for the programs that may still use the old
// one, read it (aggs.hpp). Maps that hold no key need no switch (the
// wait is a grace period: ~10-30 ms); once stopped, one switch is always
// made, and past it nothing writes the maps any more: everything is read,
// without a switch.
void bpf_engine::snap_aggs()
{
	last_agg_ = mono_ns();
	if (maps_.agg_stores.empty())
		return;
	std::optional<uint32_t> keep;
	if (!aggs_quiet_) {
		const bool stopped = stopped_;
		if (!stopped && std::none_of(maps_.agg_stores.begin(), maps_.agg_stores.end(),
					     [](const engine_maps::agg_store &st) {
						     return has_keys(st.fd.get(), st.key_size);
					     }))
			return;
		set_generation(maps_.agg_gen.get(), ++agg_gen_);
		agg_barrier_.wait();
		keep = agg_gen_;
		aggs_quiet_ = stopped;
	}
	agg_collector sink(pending_aggs_);
	for (const engine_maps::agg_store &st : maps_.agg_stores) {
		agg_map_view v;
		v.fd = st.fd.get();
		v.key_size = st.key_size;
		v.value_size = st.value_size;
		(void)drain_aggregation(v, prog_.aggregations, maps_.ncpus, sink, keep);
	}
}

void bpf_engine::drain(engine_sink &sink)
{
	if (!ring_)
		return;
	// The ring first, then the aggregations: every record delivered below
	// was then written before the maps were read, so a trunc() or clear()
	// record acts on every update that came before it (collected after the
	// maps, a trunc() missed what was aggregated in between: seen under
	// slow TCG guests). Collected before the status drops, too: the
	// consumer counts speculative drops (specsize) as it collects.
	(void)ring_->collect();
	report_drops(sink, false);
	if (stopped_ || exiting() || aggs_due() || trims_aggs())
		snap_aggs();
	for (const agg_data &a : pending_aggs_)
		sink.aggregation(a);
	pending_aggs_.clear();
	std::vector<dt_bpf_cpustate> now = cpustates(maps_);
	for (uint32_t c = 0; c < now.size() && c < seen_.size(); c++) {
		if (now[c].agg_drops > seen_[c].agg_drops)
			sink.drops("aggregation", now[c].agg_drops - seen_[c].agg_drops, c);
		seen_[c].agg_drops = now[c].agg_drops;
	}
	ring_->deliver(sink);
	report_drops(sink, true);
}

} // namespace

} // namespace dt::engines::bpf

namespace dt {

std::unique_ptr<engine> make_bpf_engine(const engine_settings &s)
{
	return std::make_unique<engines::bpf::bpf_engine>(s);
}

std::optional<error> bpf_engine_refusal()
{
	LIBBPF_OPTS(bpf_map_create_opts, o);
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_probe", 4, 8, 1, &o);
	if (fd >= 0) {
		close(fd);
		return std::nullopt;
	}
	int err = errno;
	if (err == EPERM || err == EACCES)
		return error(errc::privilege, engines::bpf::k_privilege_message);
	if (err == ENOSYS)
		return error(errc::unsupported, "this kernel does not support bpf()");
	return error(errc::unsupported,
		     "bpf() does not work here: " + engines::bpf::errno_text(err));
}

} // namespace dt
