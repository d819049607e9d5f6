// SPDX-License-Identifier: MIT
// The kmod engine (dtrace/engine.hpp): programs run in the kernel by
// dtrace.ko, driven through /dev/dtrace (kmod/include/uapi/dtrace/ioctl.h).
//
//   enable(program)  the core and the provider modules the descriptions
//                    need are loaded (modules.hpp), and given the probes
//                    they cannot find (kmod provide); uprobe probes placed
//                    in dtrace_pid.ko (uprobes.hpp); /dev/dtrace opened (one
//                    consumer state); the program written as one ENABLE
//                    blob (program_blob.hpp); every EPID described
//                    (EPROBE, PROBES): enabled_probe[] with the kernel's
//                    probe ids and names
//   go()             GO: BEGIN fires in the kernel (refused as the other
//                    engines refuse it: engine/buffer_sizes.hpp, option cpu
//                    naming a CPU that is not online); with option cpu,
//                    GO and STOP are called from that CPU, the only one
//                    dtrace.ko traces then (DTRACE_PROGF_CPU), so that
//                    BEGIN and END fire there as every other probe does
//   wait(t)          sleeps in short steps, returning early once exit()
//                    ran (STATUS); aggregation buffers are snapped at
//                    aggrate meanwhile, so that they do not fill
//   stop()           STOP: END fires
//   drain(sink)      in dtrace_work()'s order: status counters as drops
//                    ("dynamic", "dynamic_dirty", "speculative",
//                    "speculative_busy", "speculative_unavail",
//                    "dblerror"), the
//                    aggregation deltas (AGGSNAP per CPU, at aggrate, and
//                    always once stopped or exiting) with their
//                    "aggregation" drops, then each CPU's principal buffer
//                    (BUFSNAP): firings in order, the engine's own ERROR
//                    firings turned into fault reports where they happened,
//                    then that CPU's "principal" drops
//                    (bufpolicy fill and ring: principal buffers once,
//                    after STOP; a filled buffer stops tracing as exit()
//                    does; the deadman's KILLED aborts, as illumos)
//   ~kmod_engine     the device is closed: the kernel disables and frees
//                    the enabling (also when the process dies)
#include "../buffer_sizes.hpp"
#include "device.hpp"
#include "modules.hpp"
#include "program_blob.hpp"
#include "uprobes.hpp"

#include <dtrace/engine.hpp>
#include <dtrace/provider.hpp>

#include <sched.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>

namespace dt::engines::kmod {
namespace {

using dt::kmod::device;

uint64_t mono_ns()
{
	struct timespec ts {};
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
	       static_cast<uint64_t>(ts.tv_nsec);
}

// Sleep ns; false if a signal woke us (the consumer's ^C).
bool nap(uint64_t ns)
{
	struct timespec ts {};
	ts.tv_sec = static_cast<time_t>(ns / 1'000'000'000ULL);
	ts.tv_nsec = static_cast<long>(ns % 1'000'000'000ULL);
	return clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nullptr) != EINTR;
}

template <typename T>
T load(const uint8_t *p)
{
	T v;
	std::memcpy(&v, p, sizeof(T));
	return v;
}

constexpr uint64_t k_poll_ns = 25'000'000; // STATUS while waiting

// While alive, the calling thread runs on `cpu` only (option cpu: BEGIN and
// END fire on the CPU that calls GO and STOP), and gets its affinity back
// after. error(): sched_setaffinity()'s errno, EINVAL for a CPU that is
// not online (the user engine's check).
class pinned {
public:
	explicit pinned(std::optional<uint64_t> cpu)
	{
		if (!cpu)
			return;
		if (*cpu >= CPU_SETSIZE) {
			err_ = EINVAL;
			return;
		}
		if (sched_getaffinity(0, sizeof old_, &old_) != 0) {
			err_ = errno;
			return;
		}
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(static_cast<int>(*cpu), &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0) {
			err_ = errno;
			return;
		}
		on_ = true;
	}
	~pinned()
	{
		if (on_)
			(void)sched_setaffinity(0, sizeof old_, &old_);
	}
	pinned(const pinned &) = delete;
	pinned &operator=(const pinned &) = delete;
	[[nodiscard]] int error() const { return err_; }

private:
	cpu_set_t old_{};
	bool on_ = false;
	int err_ = 0;
};

void check_killed(const dtrace_status_t &st);

class kmod_engine final : public engine {
public:
	explicit kmod_engine(const engine_settings &s) : s_(s) {}

	std::string_view name() const override { return "kmod"; }
	using engine::enable;
	// The kernel matches the descriptions against its own probes (and
	// creates on-demand ones, profile-N): `en`, the registry's view, gives
	// what the kernel does not know (each probe's flow, for -F).
	std::vector<enabled_probe> enable(const program &p, const enabling &en) override;
	void go() override;
	void stop() override;
	void wait(std::chrono::nanoseconds t) override;
	void drain(engine_sink &sink) override;
	bool exiting() const override { return exiting_; }

protected:
	const engine_settings &settings() const override { return s_; }

private:
	engine_settings s_;
	program prog_;
	// Before dev_: its probes go once the consumer closed.
	dt::kmod::uprobes uprobes_;
	device dev_;
	dtrace_conf_t conf_{};
	dt::kmod::program_blob blob_;
	std::vector<uint32_t> epid_size_;   // [epid]
	std::vector<uint32_t> epid_cookie_; // [epid]
	bool started_ = false, stopped_ = false, exiting_ = false;
	// bufpolicy fill or ring: principal buffers are read once, after STOP.
	bool read_at_stop_ = false, fill_ = false;
	dtrace_status_t seen_{};
	resolved_options opts_{};     // enable()
	std::optional<uint64_t> cpu_; // option cpu
	engines::buffer_needs needs_; // enable(): checked at go()
	uint64_t aggrate_ = 0;	      // opts_.aggrate, at least 1 ms
	uint64_t last_agg_ = 0;
	std::vector<agg_data> pending_aggs_;
	std::map<uint32_t, uint64_t> agg_drops_; // by CPU, since the last drain
	std::vector<uint8_t> buf_, aggbuf_;

	void load_modules();
	void place_uprobes(const enabling &en);
	void refresh_status();
	void snap_aggs();
	void deliver_aggs(engine_sink &sink);
	[[noreturn]] void fail(const std::string &what, int err);
};

void kmod_engine::fail(const std::string &what, int err)
{
	throw engine_error(what + ": " + std::strerror(err));
}

// Do the probes `d` names run on this engine without a provider module
// (the probes dtrace.ko provides itself)? The providers' descriptions say.
bool runs_without_module(provider_registry &reg, const probe_desc &d)
{
	auto probes = reg.match(d);
	return !probes.empty() && std::all_of(probes.begin(), probes.end(), [&](const probe *p) {
		return reg.fire(*p).runs_on(DT_ENGINE_KMOD);
	});
}

// The flow (-F) of each probe dtrace.ko enabled: its provider describes it,
// the kernel's probe table does not. The front half matched the same
// descriptions in the registry (`en`): a kernel probe takes the flow of
// the registry's probe of the same name.
void fill_flow(const enabling &en, std::vector<enabled_probe> &eps)
{
	std::map<std::string, const probe_fire *> fires; // by provider:mod:func:name
	for (size_t i = 0; i < en.probes.size(); i++)
		fires.try_emplace(en.probes[i]->desc.str(), &en.fires[i]);
	for (enabled_probe &ep : eps)
		if (auto it = fires.find(ep.probe.str()); it != fires.end()) {
			ep.flow = it->second->flow;
			ep.flow_syscall = it->second->syscall;
		}
}

// The core, then the kernel half of every provider a description could
// name (the plugins' kmod tables, plugin.h dt_plugin_kmod_ops_t).
void kmod_engine::load_modules()
{
	if (std::optional<error> e = dt::kmod::ensure_core())
		throw engine_error(e->what(), e->code());
	provider_registry &reg = registry();
	std::set<std::string> done;
	for (uint32_t ci = 0; ci < prog_.clauses.size(); ci++) {
		for (const probe_desc &d : prog_.clauses[ci].descs) {
			reg.load_matching(d.provider);
			// A description that does not name its provider exactly
			// (BEGIN, :::entry, sys*:::) loads the kernel halves of
			// the providers whose probes it matches, not of every
			// provider (fbt's would walk every kernel symbol).
			std::optional<std::set<const provider *>> matched;
			for (provider *prov : reg.providers()) {
				const dt_plugin_ops_t &ops = prov->ops();
				if (!prov->could_match(d.provider))
					continue;
				bool has_kmod = DT_ABI_HAS(&ops, kmod) && ops.kmod != nullptr &&
						DT_ABI_HAS(ops.kmod, module) &&
						ops.kmod->module != nullptr;
				if (!has_kmod) {
					// Named exactly: say why it cannot run here,
					// unless its probes need no kernel half (the
					// core's own, dtrace:::BEGIN: they say kmod).
					if (d.provider == ops.name && !runs_without_module(reg, d))
						throw engine_error(
							"the kmod engine cannot enable " + d.str() +
								": provider " + ops.name +
								" has no kernel module",
							ci);
					continue;
				}
				if (d.provider != ops.name) {
					if (!matched) {
						matched.emplace();
						for (const probe *p : reg.match(d))
							matched->insert(p->prov);
					}
					if (matched->count(prov) == 0)
						continue;
				}
				std::string mod = ops.kmod->module;
				if (!done.insert(mod).second)
					continue;
				if (std::optional<error> e = dt::kmod::load_module(mod))
					throw engine_error(e->what(), e->code());
			}
		}
	}
}

// Probes that fire from a uprobe (pid, USDT: an object, an offset, a
// process, which dtrace.ko cannot find by name) are placed in the uprobe
// module first (uprobes.hpp), where their plugin's attach() says.
void kmod_engine::place_uprobes(const enabling &en)
{
	provider_registry &reg = registry();
	std::set<const probe *> placed;
	for (size_t i = 0; i < en.probes.size(); i++) {
		const probe &pr = *en.probes[i];
		if (!dt::kmod::fires_from_uprobe(en.fires[i]) || !placed.insert(&pr).second)
			continue;
		std::string why;
		int rc = uprobes_.place(reg, pr, why);
		if (rc >= 0)
			continue;
		throw engine_error(!why.empty() ? why
						: "the kmod engine cannot enable " + pr.desc.str() +
							  ": " + std::strerror(-rc),
				   rc == -ENOTSUP ? errc::unsupported : errc::enable,
				   en.eps[i].clause);
	}
}

std::vector<enabled_probe> kmod_engine::enable(const program &p, const enabling &en)
{
	prog_ = p;
	opts_ = engine_options(prog_);
	// Reading the aggregation buffer more often than every 1 ms is
	// this engine's floor.
	aggrate_ = std::max<uint64_t>(opts_.aggrate, 1'000'000);
	needs_ = engines::buffer_needs_of(prog_, en);
	cpu_.reset();
	if (auto c = prog_.option("cpu"); c && !option_unsets("cpu", *c))
		cpu_ = std::strtoull(c->c_str(), nullptr, 0);
	load_modules();
	// Kernel halves that cannot find their probes themselves (fbt) are
	// given those the descriptions matched (plugin.h kmod provide).
	std::string why;
	if (int rc = registry().kmod_provide(en.probes, why); rc < 0)
		throw engine_error("the kmod engine cannot enable the program: " +
				   (why.empty() ? std::string(std::strerror(-rc)) : why));
	place_uprobes(en);

	int err = dev_.open();
	if (err == EACCES || err == EPERM)
		throw engine_error("DTrace requires additional privileges", errc::privilege);
	if (err != 0)
		fail(std::string("cannot open ") + dt::kmod::k_device_path, err);
	if ((err = dev_.conf(conf_)) != 0)
		fail("DTRACEIOC_CONF", err);
	if (conf_.dtc_abi_version != DTRACE_IOCTL_VERSION)
		throw engine_error("dtrace.ko speaks /dev/dtrace ABI version " +
				   std::to_string(conf_.dtc_abi_version) +
				   ", this consumer version " +
				   std::to_string(DTRACE_IOCTL_VERSION));

	dt::kmod::blob_options bo;
	bo.strip_destructive = !s_.destructive && !opts_.destructive;
	bo.destructive = !bo.strip_destructive;
	bo.max_bufsize = conf_.dtc_max_bufsize ? conf_.dtc_max_bufsize : bo.max_bufsize;
	bo.cpu = cpu_;
	blob_ = dt::kmod::make_program_blob(prog_, opts_, bo);

	dtrace_enable_t req{};
	err = dev_.enable(blob_.bytes, req);
	if (err != 0) {
		std::string msg = req.dten_errmsg;
		// dten_erroff inside an ECB section: say which description.
		for (const dt::kmod::ecb_origin &o : blob_.ecbs)
			if (!msg.empty() && req.dten_erroff >= o.begin && req.dten_erroff < o.end)
				throw engine_error("the kmod engine cannot enable " + o.desc.str() +
							   ": " + msg,
						   o.clause);
		if (msg.empty())
			msg = std::strerror(err);
		throw engine_error("the kmod engine cannot enable the program: " + msg);
	}

	std::vector<enabled_probe> out;
	std::vector<uint32_t> per_cookie(blob_.ecbs.size() + 2, 0);
	epid_size_.assign(req.dten_first_epid + req.dten_nprobes, 0);
	epid_cookie_.assign(epid_size_.size(), 0);
	for (uint32_t i = 0; i < req.dten_nprobes; i++) {
		uint32_t epid = req.dten_first_epid + i;
		dtrace_eprobedesc_t e{};
		if ((err = dev_.eprobe(epid, e)) != 0)
			fail("DTRACEIOC_EPROBE " + std::to_string(epid), err);
		epid_size_[epid] = e.dtpe_size;
		epid_cookie_[epid] = e.dtpe_ecb;
		if (e.dtpe_ecb == blob_.error_cookie || e.dtpe_ecb == 0 ||
		    e.dtpe_ecb > blob_.ecbs.size())
			continue;
		per_cookie[e.dtpe_ecb]++;
		dtrace_probedesc_t pd{};
		if ((err = dev_.probe(e.dtpe_probeid, pd)) != 0)
			fail("DTRACEIOC_PROBES " + std::to_string(e.dtpe_probeid), err);
		enabled_probe ep;
		ep.epid = epid;
		ep.probe_id = e.dtpe_probeid;
		ep.probe = {pd.dtpd_provider, pd.dtpd_mod, pd.dtpd_func, pd.dtpd_name};
		ep.clause = blob_.ecbs[e.dtpe_ecb - 1].clause;
		out.push_back(std::move(ep));
	}
	fill_flow(en, out);
	// The consumer numbers EPIDs densely from 1: ours come first, the
	// engine's ERROR ECB (the last section) after them.
	for (size_t i = 0; i < out.size(); i++)
		if (out[i].epid != i + 1)
			throw engine_error("dtrace.ko gave EPIDs out of order");
	if (!s_.zero_ok)
		for (uint32_t c = 1; c <= blob_.ecbs.size(); c++)
			if (per_cookie[c] == 0)
				throw engine_error("probe description " +
							   blob_.ecbs[c - 1].desc.str() +
							   " does not match any probes",
						   errc::no_match, blob_.ecbs[c - 1].clause);
	buf_.assign(blob_.bufsize, 0);
	aggbuf_.assign(blob_.aggsize, 0);
	fill_ = opts_.bufpolicy == buffer_policy::fill;
	read_at_stop_ = fill_ || opts_.bufpolicy == buffer_policy::ring;
	return out;
}

void kmod_engine::go()
{
	if (started_ || !dev_.is_open())
		return;
	if (prog_.destructive() && !s_.destructive && !opts_.destructive)
		throw engine_error("Destructive actions not allowed");
	// illumos dtrace_state_go(): the buffer options against what the
	// ECBs record, in DTrace's words, as the other engines check them.
	// The blob's sizes are dtrace.ko's floors, not the options.
	engines::check_buffer_sizes(needs_, opts_);
	pinned on_cpu(cpu_);
	if (on_cpu.error() != 0)
		throw engine_error(std::strerror(on_cpu.error()));
	uint32_t cpu = 0;
	int err = dev_.go(cpu);
	if (err == ENOMEM)
		throw engine_error("not enough memory for the buffers (bufsize " +
				   std::to_string(blob_.bufsize) + ", aggsize " +
				   std::to_string(blob_.aggsize) + " per CPU)");
	if (err == EINVAL && cpu_)
		throw engine_error(std::strerror(err)); // went offline meanwhile
	if (err != 0)
		fail("DTRACEIOC_GO", err);
	started_ = true;
	last_agg_ = mono_ns();
	refresh_status();
}

void kmod_engine::stop()
{
	if (!started_ || stopped_)
		return;
	pinned on_cpu(cpu_); // END fires there (nowhere if it went offline)
	uint32_t cpu = 0;
	int err = dev_.stop(cpu);
	if (err != 0 && err != EALREADY)
		fail("DTRACEIOC_STOP", err);
	stopped_ = true;
}

// The deadman killed the state (ioctl.h DTRACE_ACTIVITY_KILLED): as
// illumos dt_handle_status() -> EDT_BRICKED, which dtrace(1) reports as
// "processing aborted" and exits 1.
void check_killed(const dtrace_status_t &st)
{
	if (st.dtst_activity == DTRACE_ACTIVITY_KILLED)
		throw engine_error("processing aborted: Abort due to systemic unresponsiveness");
}

void kmod_engine::refresh_status()
{
	dtrace_status_t st{};
	if (dev_.status(st) != 0)
		return;
	check_killed(st);
	// A filled buffer ends tracing as exit() does (illumos
	// DTRACE_STATUS_FILLED): STOP, END in the room kept for it.
	if (st.dtst_exiting || (fill_ && st.dtst_filled != 0))
		exiting_ = true;
}

void kmod_engine::wait(std::chrono::nanoseconds t)
{
	if (!started_ || stopped_ || exiting_)
		return;
	uint64_t now = mono_ns();
	uint64_t until = now + static_cast<uint64_t>(std::max<int64_t>(t.count(), 0));
	while (now < until) {
		if (!nap(std::min(until - now, k_poll_ns)))
			return;
		refresh_status();
		if (exiting_)
			return;
		now = mono_ns();
		if (!aggbuf_.empty() && now - last_agg_ >= aggrate_)
			snap_aggs();
	}
}

// Every CPU's aggregation deltas since the last snapshot, kept for drain.
void kmod_engine::snap_aggs()
{
	last_agg_ = mono_ns();
	if (aggbuf_.empty())
		return;
	for (uint32_t cpu = 0; cpu < conf_.dtc_ncpus; cpu++) {
		dtrace_bufdesc_t d{};
		int err = dev_.snap(cpu, aggbuf_, true, d);
		if (err == EINVAL)
			continue; // an absent CPU
		if (err != 0)
			fail("DTRACEIOC_AGGSNAP", err);
		if (d.dtbd_drops != 0)
			agg_drops_[cpu] += d.dtbd_drops;
		const uint8_t *b = aggbuf_.data();
		uint64_t size = std::min<uint64_t>(d.dtbd_size, aggbuf_.size());
		for (uint64_t off = 0; off + sizeof(dtrace_aggrec_t) <= size;) {
			auto r = load<dtrace_aggrec_t>(b + off);
			off += sizeof(r);
			uint64_t keyspace = (uint64_t{r.dtag_keysize} + 7) & ~uint64_t{7};
			if (off + keyspace + uint64_t{r.dtag_nwords} * 8 > size)
				break;
			agg_data a;
			a.aggid = r.dtag_aggid;
			a.key.assign(b + off, b + off + r.dtag_keysize);
			off += keyspace;
			a.value.resize(r.dtag_nwords);
			std::memcpy(a.value.data(), b + off, uint64_t{r.dtag_nwords} * 8);
			off += uint64_t{r.dtag_nwords} * 8;
			pending_aggs_.push_back(std::move(a));
		}
	}
}

void kmod_engine::deliver_aggs(engine_sink &sink)
{
	for (const agg_data &a : pending_aggs_)
		sink.aggregation(a);
	pending_aggs_.clear();
	for (auto &[cpu, n] : agg_drops_)
		sink.drops("aggregation", n, cpu);
	agg_drops_.clear();
}

void kmod_engine::drain(engine_sink &sink)
{
	if (!started_)
		return;
	// Status counters: totals in the kernel, deltas to the sink.
	dtrace_status_t st{};
	if (dev_.status(st) == 0) {
		check_killed(st);
		if (st.dtst_exiting || (fill_ && st.dtst_filled != 0))
			exiting_ = true;
		uint64_t dirty = st.dtst_dyndrops_dirty - seen_.dtst_dyndrops_dirty;
		uint64_t dyn = st.dtst_dyndrops - seen_.dtst_dyndrops;
		if (dyn > dirty)
			sink.drops("dynamic", dyn - dirty, 0);
		if (dirty != 0)
			sink.drops("dynamic_dirty", dirty, 0);
		if (st.dtst_specdrops > seen_.dtst_specdrops)
			sink.drops("speculative", st.dtst_specdrops - seen_.dtst_specdrops, 0);
		if (st.dtst_specdrops_busy > seen_.dtst_specdrops_busy)
			sink.drops("speculative_busy",
				   st.dtst_specdrops_busy - seen_.dtst_specdrops_busy, 0);
		if (st.dtst_specdrops_unavail > seen_.dtst_specdrops_unavail)
			sink.drops("speculative_unavail",
				   st.dtst_specdrops_unavail - seen_.dtst_specdrops_unavail, 0);
		if (st.dtst_dblerrors > seen_.dtst_dblerrors)
			sink.drops("dblerror", st.dtst_dblerrors - seen_.dtst_dblerrors, 0);
		seen_ = st;
	}

	// Aggregations (dtrace_aggregate_snap() at aggrate), then principal
	// buffers, so that a printa() in a record sees what came before it.
	if (stopped_ || exiting_ || mono_ns() - last_agg_ >= aggrate_)
		snap_aggs();
	deliver_aggs(sink);

	if (read_at_stop_ && !stopped_)
		return;
	for (uint32_t cpu = 0; cpu < conf_.dtc_ncpus; cpu++) {
		dtrace_bufdesc_t d{};
		int err = dev_.snap(cpu, buf_, false, d);
		if (err == EINVAL)
			continue; // an absent CPU
		if (err != 0)
			fail("DTRACEIOC_BUFSNAP", err);
		const uint8_t *b = buf_.data();
		uint64_t size = std::min<uint64_t>(d.dtbd_size, buf_.size());
		// The records just taken may follow aggregating firings that
		// the snapshot above missed (a probe firing between the two
		// ioctls). Snapping the aggregations again after the buffer
		// gives a printa() in these records every update made before
		// it, whatever the timing; illumos' dtrace_work() leaves that
		// window open.
		if (size != 0 && !aggbuf_.empty()) {
			snap_aggs();
			deliver_aggs(sink);
		}
		for (uint64_t off = 0; off + sizeof(dtrace_rechdr_t) <= size;) {
			uint32_t epid = load<uint32_t>(b + off);
			uint32_t fsize = epid < epid_size_.size() ? epid_size_[epid] : 0;
			if (fsize == 0 || off + fsize > size)
				break; // cannot happen: the kernel writes whole firings
			if (epid_cookie_[epid] == blob_.error_cookie) {
				fault_report f;
				f.epid = static_cast<uint32_t>(load<uint64_t>(b + off + 16));
				f.action = static_cast<uint32_t>(load<uint64_t>(b + off + 24));
				f.offset = static_cast<int64_t>(load<uint64_t>(b + off + 32));
				f.code = static_cast<uint16_t>(load<uint64_t>(b + off + 40));
				f.illval = load<uint64_t>(b + off + 48);
				sink.fault(f);
			} else {
				sink.records(std::span<const uint8_t>(b + off, fsize), cpu);
			}
			off += fsize;
		}
		if (d.dtbd_drops != 0)
			sink.drops("principal", d.dtbd_drops, cpu);
	}
}

} // namespace
} // namespace dt::engines::kmod

namespace dt {

std::unique_ptr<engine> make_kmod_engine(const engine_settings &s)
{
	return std::make_unique<engines::kmod::kmod_engine>(s);
}

std::optional<error> kmod_engine_refusal()
{
	return dt::kmod::ensure_core();
}

std::optional<error> kmod_engine_could_run(const char *module)
{
	struct stat sb {};
	if (stat(dt::kmod::k_device_path, &sb) != 0)
		if (std::optional<error> e = dt::kmod::could_load("dtrace"))
			return e;
	if (module == nullptr)
		return std::nullopt;
	return dt::kmod::could_load(module);
}

} // namespace dt
