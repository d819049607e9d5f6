// SPDX-License-Identifier: MIT
//
// The session (dtrace/session.hpp): the calls illumos' dtrace.c makes of
// libdtrace, in that order:
//
//   processes     procs.cc (dt_proc.c): -c held at entry, -p watched
//   registry      made once, after the processes (pid$target)
//   compile       piece by piece, each with the pieces before it
//   enable        match_program() once (the front half, engine.hpp) ─►
//                 choose_engine() (engine_choice.cc) ─► engine.enable()
//                 A failure names its piece: the clause the engine names,
//                 else the first prefix of pieces that fails on its own
//                 (only on this error path are engines built again).
//   go            engine.go(): BEGIN
//   work          first: mappings noted, the processes' run-time linkers
//                 watched (load_watch.hpp), -c processes released; then
//                 a process stopped in dlopen()/dlclose(): probes of
//                 its new objects added, of those gone removed; a
//                 process stopped at exec() (exec_watch.hpp, with -Z
//                 USDT descriptions that name no process): its probes
//                 added, and removed when it exits; then
//                 drain ─► consumer; processes polled; stop on ^C or the
//                 processes' end at once, on exit() or a full fill buffer
//                 when the status is next checked (every statusrate, as
//                 illumos dtrace_status(): END fires up to statusrate
//                 after exit())
#include <dtrace/consumer.hpp>
#include <dtrace/options.hpp>
#include <dtrace/provider.hpp>
#include <dtrace/session.hpp>

#include "engine_choice.hpp"
#include "exec_watch.hpp"
#include "load_watch.hpp"
#include "procs.hpp"
#include "util/assert.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

namespace dt {

struct session::impl {
	detail::procs procs;
	std::unique_ptr<provider_registry> registry;
	std::map<std::string, std::string> options; // -x, before the pragmas
	std::optional<enabling> front;		    // match_program(prog), once
	std::optional<engine_decision> decision;
	std::unique_ptr<engine> eng;
	uint64_t switchrate = 0; // set by enable()
	uint64_t statusrate = 0; // set by enable()
	// When the status (exit(), a full fill buffer) was last checked, on
	// the steady clock; 0 before the first check.
	std::chrono::steady_clock::time_point last_status{};
	bool status_checked = false;

	// illumos dtrace_status(): the status is looked at on the first call
	// and then once per statusrate, on a fixed grid from the first.
	bool status_due()
	{
		auto now = std::chrono::steady_clock::now();
		auto rate = std::chrono::nanoseconds(statusrate);
		if (!status_checked) {
			status_checked = true;
			last_status = now;
			return true;
		}
		if (now - last_status < rate)
			return false;
		last_status += rate;
		return true;
	}
	bool released = false;
	bool stopped = false; // engine.stop() called: END has fired

	// Objects mapped later (load_watch.hpp): whether to watch, and the
	// ECBs made so far by (probe id, clause), those on user probes
	// attached now, the next EPID.
	bool watching = false;
	detail::load_watch watch;
	std::map<std::pair<uint32_t, uint32_t>, uint32_t> known;
	std::set<uint32_t> attached;
	uint32_t next_epid = 1;

	// Processes started after tracing began (exec_watch.hpp): the watch,
	// when the program has a description that may name their probes,
	// and those with USDT notes still alive (the registry's late ones).
	bool later = false; // set by enable(): watch from the first work()
	std::unique_ptr<detail::exec_watch> execs;
	std::vector<pid_t> late;

	void stopped_processes(const program &prog, consumer &c, const warning_fn &warn);
	void watch_later(const warning_fn &warn);
	void new_processes(const program &prog, consumer &c, const warning_fn &warn);
	void rescan(const program &prog, consumer &c, const warning_fn &warn);
	[[nodiscard]] bool looks_for_stops() const { return (watching && !watch.empty()) || execs; }
};

// EPIDs beyond the enabling's that probes of objects mapped later may take
// (the bpf engine's probe map is made that much larger).
constexpr uint32_t k_epid_reserve = 4096;

namespace {

// Could a description of `p` name a probe of a process (pid, USDT)?
bool names_user_probes(const program &p, provider_registry &reg)
{
	for (const clause &c : p.clauses)
		for (const probe_desc &d : c.descs)
			if (reg.names_process_provider(d.provider))
				return true;
	return false;
}

// Could a description of `p` name USDT probes of a process started after
// tracing began (exec_watch.hpp)? With -Z, a description whose provider
// names no process: a glob (test_prov*), a name no plugin has (shop), or
// none when the description matched nothing (:::query-start).
bool names_later_processes(const program &p, provider_registry &reg, const enabling &en,
			   bool zero_ok)
{
	if (!zero_ok)
		return false;
	for (const clause &c : p.clauses)
		for (const probe_desc &d : c.descs) {
			const std::string &prov = d.provider;
			if (!prov.empty() && !is_glob(prov) &&
			    prov.find_last_not_of("0123456789") + 1 != prov.size())
				continue; // python1234: that process only
			if (prov.empty()) {
				bool unmatched =
					std::any_of(en.unmatched.begin(), en.unmatched.end(),
						    [&](const auto &u) { return u.second == d; });
				if (!unmatched)
					continue;
			}
			if (reg.names_usdt_provider(prov))
				return true;
		}
	return false;
}

} // namespace

void session::impl::watch_later(const warning_fn &warn)
{
	try {
		execs = std::make_unique<detail::exec_watch>();
		if (std::getenv("DTRACE_DEBUG") != nullptr && warn)
			warn("watching for processes started later");
	} catch (const std::exception &e) {
		if (warn)
			warn(std::string("cannot watch for processes started later: ") + e.what());
	}
}

void session::impl::new_processes(const program &prog, consumer &c, const warning_fn &warn)
{
	std::vector<detail::exec_watch::started> started = execs->take();
	if (started.empty())
		return;
	std::vector<pid_t> now, held;
	for (const detail::exec_watch::started &s : started) {
		now.push_back(s.pid);
		if (s.held)
			held.push_back(s.pid);
	}
	// Each held one is stopped until it is continued below, whatever happens.
	struct resume_all {
		const std::vector<pid_t> &pids;
		~resume_all()
		{
			for (pid_t pid : pids)
				detail::load_watch::resume(pid);
		}
	} guard{held};
	for (const detail::exec_watch::started &s : started) {
		pid_t pid = s.pid;
		if (std::getenv("DTRACE_DEBUG") != nullptr && warn)
			warn("pid " + std::to_string(pid) + " exec()ed a program with USDT notes");
		if (std::find(late.begin(), late.end(), pid) == late.end())
			late.push_back(pid);
		watch.remove(pid); // exec()ed again: its old watch is gone
		if (!s.held)
			continue; // running on (a terminal's): not stopped at its loads either
		// The libraries it loads at startup and later (it has only its
		// executable and the run-time linker mapped yet).
		std::string why = watch.add(pid);
		if (!why.empty() && std::getenv("DTRACE_DEBUG") != nullptr && warn)
			warn("not watching pid " + std::to_string(pid) +
			     " for objects it maps later: " + why);
	}
	registry->set_late_processes(late);
	rescan(prog, c, warn);
	for (pid_t pid : now)
		c.note_process(pid);
}

void session::impl::rescan(const program &prog, consumer &c, const warning_fn &warn)
{
	provider_registry &reg = *registry;
	// Processes started later that have exited since: not asked about
	// (the provider would warn that it cannot read them); their probes go.
	if (std::erase_if(late, [&](pid_t pid) {
		    if (!detail::process_gone(pid))
			    return false;
		    watch.remove(pid);
		    return true;
	    }) != 0)
		reg.set_late_processes(late);
	reg.forget_matches();
	enabling now;
	std::vector<std::string> refused;
	try {
		now = match_program(prog, reg, &refused);
	} catch (const std::exception &e) {
		if (warn) // nothing changes: what is attached stays
			warn(std::string("cannot match probes in newly mapped objects: ") +
			     e.what());
		return;
	}
	for (const std::string &why : refused)
		if (warn)
			warn("cannot match probes in newly mapped objects: " + why);
	enabling add;
	std::set<uint32_t> present;
	std::vector<uint32_t> fresh;
	for (size_t i = 0; i < now.eps.size(); i++) {
		if (now.fires[i].kind != fire_kind::uprobe)
			continue; // only user probes come and go with objects
		enabled_probe ep = now.eps[i];
		auto [it, added] = known.try_emplace({ep.probe_id, ep.clause}, next_epid);
		if (added) {
			next_epid++;
			fresh.push_back(it->second);
		}
		ep.epid = it->second;
		present.insert(ep.epid);
		if (attached.contains(ep.epid))
			continue;
		add.eps.push_back(std::move(ep));
		add.probes.push_back(now.probes[i]);
		add.fires.push_back(now.fires[i]);
	}
	// New ECBs in EPID order: the engine takes new EPIDs densely.
	std::vector<size_t> order(add.eps.size());
	for (size_t i = 0; i < order.size(); i++)
		order[i] = i;
	std::sort(order.begin(), order.end(),
		  [&](size_t a, size_t b) { return add.eps[a].epid < add.eps[b].epid; });
	enabling sorted;
	for (size_t i : order) {
		sorted.eps.push_back(add.eps[i]);
		sorted.probes.push_back(add.probes[i]);
		sorted.fires.push_back(add.fires[i]);
	}
	std::vector<uint32_t> gone;
	for (uint32_t e : attached)
		if (!present.contains(e))
			gone.push_back(e);
	if (!gone.empty()) {
		eng->remove_probes(gone);
		for (uint32_t e : gone)
			attached.erase(e);
	}
	if (sorted.eps.empty())
		return;
	try {
		eng->add_probes(sorted);
	} catch (const std::exception &e) {
		if (warn)
			warn(std::string("cannot enable probes in newly mapped objects: ") +
			     e.what());
		// Their EPIDs were not taken: the next rescan numbers them again.
		for (uint32_t f : fresh)
			std::erase_if(known, [&](const auto &kv) { return kv.second == f; });
		next_epid -= static_cast<uint32_t>(fresh.size());
		return;
	}
	c.add_probes(sorted.eps);
	for (const enabled_probe &ep : sorted.eps)
		attached.insert(ep.epid);
}

void session::impl::stopped_processes(const program &prog, consumer &c, const warning_fn &warn)
{
	// Processes started later that have exited: their probes go.
	if (!stopped && std::any_of(late.begin(), late.end(), detail::process_gone))
		rescan(prog, c, warn);
	for (const detail::load_watch::stopped &s : watch.take()) {
		if (s.changed && !stopped) {
			rescan(prog, c, warn);
			c.note_process(s.pid);
		}
		detail::load_watch::resume(s.pid);
	}
}

std::optional<engine_kind> parse_engine(const std::string &v)
{
	if (v == "user")
		return engine_kind::user;
	if (v == "bpf")
		return engine_kind::bpf;
	if (v == "kmod")
		return engine_kind::kmod;
	if (v == "auto" || v.empty())
		return engine_kind::automatic;
	return std::nullopt;
}

const char *engine_name(engine_kind k)
{
	switch (k) {
	case engine_kind::bpf: return "bpf";
	case engine_kind::kmod: return "kmod";
	case engine_kind::user: return "user";
	default: return "auto";
	}
}

session::session(session_settings s) : impl_(std::make_unique<impl>()), s_(std::move(s))
{
}

session::~session() = default;

void session::set_option(const std::string &name, const std::string &value, bool has_value)
{
	if (const char *why = option_error(name, value, has_value))
		throw error(errc::usage, why);
	if (name == "engine") { // not a program option: which engine runs it
		std::optional<engine_kind> k = parse_engine(value);
		if (!k)
			throw error(errc::usage,
				    "Invalid value for specified option (user, bpf, kmod or auto)");
		s_.engine = *k;
		return;
	}
	if (name == "errtags")
		return; // how the caller prints compile errors (compile_error::diag())
	if (name == "evaltime")
		impl_->procs.evaltime(value);
	if (name == "libdir") { // each one adds a directory, as -L does
		s_.libdirs.push_back(value);
		return;
	}
	if (option_unsets(name, value))
		impl_->options.erase(name);
	else
		impl_->options[name] = value;
}

pid_t session::create_process(const std::string &cmd)
{
	DT_ASSERT(!impl_->registry); // pid$target is resolved by the registry
	pid_t pid = impl_->procs.create(cmd);
	pids_.push_back(pid);
	return pid;
}

void session::grab_process(pid_t pid)
{
	DT_ASSERT(!impl_->registry);
	impl_->procs.grab(pid);
	pids_.push_back(pid);
}

std::optional<int32_t> session::target() const
{
	if (pids_.empty())
		return std::nullopt;
	return pids_.front();
}

provider_registry &session::registry()
{
	if (!impl_->registry) {
		warning_fn warn = s_.warn;
		if (!warn)
			warn = [](const std::string &) {};
		impl_->registry = std::make_unique<provider_registry>(plugin_search_path(), pids_,
								      std::move(warn));
	}
	return *impl_->registry;
}

namespace {

// The D library (translators, psinfo_t ...): <exe>/../<libdir>/dtrace in
// a build tree or a relocated install, else the configured install dir.
std::optional<std::string> dlib_dir()
{
	std::error_code ec;
	std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
	std::filesystem::path rel = exe.parent_path().parent_path() / DTRACE_DLIB_SUBDIR;
	if (!ec && std::filesystem::is_directory(rel, ec))
		return rel.lexically_normal().string();
	if (std::filesystem::is_directory(DTRACE_DLIB_INSTALL_DIR, ec))
		return DTRACE_DLIB_INSTALL_DIR;
	return std::nullopt;
}

} // namespace

void session::compile(const compiler::input &in)
{
	DT_ASSERT(!impl_->eng); // the program is fixed once enabled
	impl_->front.reset();	// the program changes: match and choose again
	impl_->decision.reset();
	compiler::settings cs;
	cs.registry = &registry();
	cs.target = target();
	cs.cpp = s_.cpp;
	cs.cpp_args = s_.cpp_args;
	cs.destructive = s_.destructive;
	cs.zero_ok = s_.zero_ok;
	cs.engine = s_.engine == engine_kind::automatic ? "user" : engine_name(s_.engine);
	// The system D library (-x syslibdir replaces it), then -L and -x
	// libdir; -x nolibs reads none (illumos DTRACE_C_NOLIBS).
	if (impl_->options.count("nolibs") == 0) {
		if (auto it = impl_->options.find("syslibdir"); it != impl_->options.end())
			cs.libdirs.push_back(it->second);
		else if (auto d = dlib_dir())
			cs.libdirs.push_back(*d);
		cs.user_libdirs = s_.libdirs;
	}
	cs.options = impl_->options;
	// A ustack() copies the user stack for CFI unwinding by default
	// (dtrace/ustack_capture.hpp); the kmod and user engines walk frame
	// pointers, so a program for them alone keeps its records small.
	if ((s_.engine == engine_kind::kmod || s_.engine == engine_kind::user) &&
	    cs.options.count("ustackbytes") == 0)
		cs.options["ustackbytes"] = "0";
	cs.warn = s_.warn;
	cs.macro_args = s_.macro_args;

	// Each piece is compiled with every piece before it, so that an error
	// names the piece at fault; the program is the last compilation.
	inputs_.push_back(in);
	if (in.k == compiler::input::kind::script && in.text.empty() && !in.file.empty()) {
		std::ifstream f(in.file, std::ios::binary);
		if (!f) {
			int err = errno;
			inputs_.pop_back();
			throw error(errc::io,
				    "failed to open " + in.file + ": " + std::strerror(err));
		}
		std::stringstream ss;
		ss << f.rdbuf();
		inputs_.back().text = ss.str();
	}
	try {
		program p = compiler::compile(inputs_, cs);
		first_clause_.push_back(prog_.clauses.size());
		prog_ = std::move(p);
	} catch (...) {
		inputs_.pop_back();
		throw;
	}
}

std::string session::disassemble() const
{
	return compiler::disassemble(prog_);
}

namespace {

// The piece (index into first_clause) that clause `c` belongs to.
size_t piece_of(const std::vector<size_t> &first_clause, uint32_t c)
{
	DT_ASSERT(!first_clause.empty());
	auto it = std::upper_bound(first_clause.begin(), first_clause.end(), size_t{c});
	return static_cast<size_t>(it - first_clause.begin()) - 1;
}

} // namespace

namespace {

listed_probe listed(const probe &p)
{
	return {p.id, p.desc, &p, p.prov};
}

// A kernel probe, described by the plugin probe of the same name when
// there is one.
listed_probe listed(const kernel_probe &k, provider_registry &reg)
{
	for (const probe *p : reg.match(k.desc))
		if (p->desc == k.desc)
			return {k.id, k.desc, p, p->prov};
	return {k.id, k.desc, nullptr, reg.find_provider(k.desc.provider)};
}

// The kernel's probes matching `d`, each with the registry's probe of the
// same name: one registry match for the whole description rather than one
// per kernel probe (fbt's 100,000 probes would each walk the kernel's
// function list).
void list_kernel(provider_registry &reg, const probe_desc &d, std::vector<listed_probe> &out)
{
	std::vector<kernel_probe> ks = kmod_list_probes(reg, d);
	if (ks.size() < 2) {
		for (const kernel_probe &k : ks)
			out.push_back(listed(k, reg));
		return;
	}
	std::map<std::string, const probe *> by_name;
	for (const probe *p : reg.match(d))
		by_name.emplace(p->desc.str(), p);
	for (const kernel_probe &k : ks) {
		auto it = by_name.find(k.desc.str());
		if (it != by_name.end())
			out.push_back({k.id, k.desc, it->second, it->second->prov});
		else
			out.push_back({k.id, k.desc, nullptr, reg.find_provider(k.desc.provider)});
	}
}

} // namespace

std::vector<listed_probe> session::list_all()
{
	std::vector<listed_probe> out;
	if (s_.engine == engine_kind::kmod) {
		list_kernel(registry(), {}, out);
		return out;
	}
	for (const probe *p : registry().all())
		out.push_back(listed(*p));
	return out;
}

session::listing session::list(const compiler::input &in)
{
	listing out;
	const bool kernel = s_.engine == engine_kind::kmod;
	if (kernel && in.k == compiler::input::kind::id) {
		// -i names the kernel's probe id, not the registry's.
		char *end = nullptr;
		unsigned long id = std::strtoul(in.text.c_str(), &end, 10);
		if (end != in.text.c_str() && *end == '\0')
			for (const kernel_probe &k : kmod_list_probes(registry(), {}))
				if (k.id == id)
					out.probes.push_back(listed(k, registry()));
		if (out.probes.empty())
			out.unmatched.push_back({"", "", "", in.text});
		return out;
	}
	const bool zero_ok = s_.zero_ok;
	s_.zero_ok = true; // -l implies -Z (illumos dtrace.c)
	size_t first = prog_.clauses.size();
	try {
		compile(in);
	} catch (...) {
		s_.zero_ok = zero_ok;
		throw;
	}
	s_.zero_ok = zero_ok;
	if (in.k == compiler::input::kind::id && prog_.clauses.size() == first)
		out.unmatched.push_back({"", "", "", in.text}); // no probe has that id
	for (size_t ci = first; ci < prog_.clauses.size(); ci++)
		for (const probe_desc &d : prog_.clauses[ci].descs) {
			size_t before = out.probes.size();
			if (kernel) {
				list_kernel(registry(), d, out.probes);
			} else {
				for (const probe *p : registry().match(d))
					out.probes.push_back(listed(*p));
			}
			if (out.probes.size() == before)
				out.unmatched.push_back(d);
		}
	return out;
}

const engine_decision &session::choose_engine()
{
	if (!impl_->front)
		impl_->front = match_program(prog_, registry());
	if (!impl_->decision) {
		impl_->decision = detail::choose_engine(s_.engine, *impl_->front, prog_);
		// A description that matched nothing may match probes of an
		// object a process maps later (-Z): the engine that can add
		// them, rather than the user engine that could run the rest.
		engine_decision &d = *impl_->decision;
		if (s_.engine == engine_kind::automatic && d.kind == engine_kind::user &&
		    !d.refusal && !impl_->procs.empty() &&
		    std::any_of(impl_->front->unmatched.begin(), impl_->front->unmatched.end(),
				[&](const auto &u) {
					return registry().names_process_provider(u.second.provider);
				}) &&
		    !bpf_engine_refusal())
			d = {engine_kind::bpf,
			     "a description may match probes of objects the processes map later",
			     std::nullopt};
		// Likewise for probes of processes started later, which only
		// the bpf engine watches for (exec_watch.hpp).
		if (s_.engine == engine_kind::automatic && d.kind != engine_kind::bpf &&
		    !d.refusal &&
		    names_later_processes(prog_, registry(), *impl_->front, s_.zero_ok) &&
		    !bpf_engine_refusal())
			d = {engine_kind::bpf,
			     "a description may match probes of processes started later",
			     std::nullopt};
	}
	return *impl_->decision;
}

std::vector<size_t> session::enable()
{
	DT_ASSERT(!impl_->eng && !first_clause_.empty());
	const engine_decision &d = choose_engine();
	DT_ASSERT(!d.refusal);

	engine_settings es;
	es.registry = &registry();
	es.zero_ok = s_.zero_ok;
	es.destructive = s_.destructive;
	es.procs = pids_;
	impl_->watching = d.kind == engine_kind::bpf && !impl_->procs.empty() &&
			  names_user_probes(prog_, registry());
	const bool later = d.kind == engine_kind::bpf &&
			   names_later_processes(prog_, registry(), *impl_->front, s_.zero_ok);
	if (impl_->watching || later)
		es.epid_reserve = k_epid_reserve;

	// What each piece matched, from the front half: no engine is built
	// to count.
	const enabling &en = *impl_->front; // choose_engine() matched the program
	matched_.assign(first_clause_.size(), 0);
	for (const enabled_probe &ep : en.eps)
		matched_[piece_of(first_clause_, ep.clause)]++;
	try {
		require_matched(en, s_.zero_ok);
		auto eng = detail::make_engine(d.kind, es);
		eps_ = eng->enable(prog_, en);
		impl_->eng = std::move(eng);
		// What was enabled: the front half's ECBs on the user and bpf
		// engines; the kernel's own match on the kmod engine.
		matched_.assign(first_clause_.size(), 0);
		for (const enabled_probe &ep : eps_)
			matched_[piece_of(first_clause_, ep.clause)]++;
		impl_->watching = impl_->watching && impl_->eng->adds_probes();
		// Watched from the first work(), when processes may start.
		impl_->later = later && impl_->eng->adds_probes();
		for (size_t i = 0; i < en.eps.size(); i++) {
			impl_->known[{en.eps[i].probe_id, en.eps[i].clause}] = en.eps[i].epid;
			if (en.fires[i].kind == fire_kind::uprobe)
				impl_->attached.insert(en.eps[i].epid);
		}
		impl_->next_epid = static_cast<uint32_t>(en.eps.size()) + 1;
	} catch (const engine_error &e) {
		if (e.clause())
			throw enable_error(e, piece_of(first_clause_, *e.clause()));
		// The engine could not say which clause: the first prefix of
		// the pieces that fails on its own is the piece at fault, as
		// when each piece is enabled after the ones before it.
		for (size_t i = 0; i + 1 < first_clause_.size(); i++) {
			program part = prog_;
			part.clauses.resize(first_clause_[i + 1]);
			try {
				auto eng = detail::make_engine(d.kind, es);
				enabling pen = match_program(part, registry());
				require_matched(pen, s_.zero_ok);
				(void)eng->enable(part, pen);
			} catch (const engine_error &) {
				throw enable_error(e, i);
			}
		}
		throw enable_error(e, first_clause_.size() - 1);
	}

	// The options' table (dtrace/options.hpp) read them when they were
	// set; with processes to watch, every 50 ms at least.
	const resolved_options ro = resolve_options(prog_.options);
	impl_->switchrate = ro.switchrate;
	impl_->statusrate = ro.statusrate;
	if (!impl_->procs.empty())
		impl_->switchrate = std::min<uint64_t>(impl_->switchrate, 50'000'000);
	return matched_;
}

void session::go()
{
	DT_ASSERT(impl_->eng);
	impl_->eng->go();
}

void session::sleep()
{
	impl &m = *impl_;
	DT_ASSERT(m.eng);
	if (m.looks_for_stops() && !m.stopped && !m.eng->exiting()) {
		// A process stopped in dlopen() or exec() waits for us: look
		// every 5 ms.
		auto until =
			std::chrono::steady_clock::now() + std::chrono::nanoseconds(m.switchrate);
		while (!m.watch.pending() && !(m.execs && m.execs->pending()) &&
		       !m.eng->exiting() && std::chrono::steady_clock::now() < until)
			m.eng->wait(std::min<std::chrono::nanoseconds>(
				std::chrono::milliseconds(5),
				until - std::chrono::steady_clock::now()));
		return;
	}
	if (m.stopped || !m.status_checked || !m.eng->exiting()) {
		m.eng->wait(std::chrono::nanoseconds(m.switchrate));
		return;
	}
	// exit() has run (the engine no longer waits): sleep until the status
	// is next due, as illumos dtrace_sleep() does, or the switchrate
	// interval if that ends first (drops and output keep coming).
	auto due = m.last_status + std::chrono::nanoseconds(m.statusrate);
	auto until = std::min(due, std::chrono::steady_clock::now() +
					   std::chrono::nanoseconds(m.switchrate));
	std::this_thread::sleep_until(until);
}

bool session::work(consumer &c, bool stop, bool abandon)
{
	impl &m = *impl_;
	DT_ASSERT(m.eng);
	if (!m.released) {
		if (m.later)
			m.watch_later(s_.warn);
		// Their mappings while they are held (and again at each round
		// below): what they trace may be printed after they have exited.
		for (pid_t pid : m.procs.live_pids()) {
			c.note_process(pid);
			if (!m.watching)
				continue;
			std::string why = m.watch.add(pid);
			if (!why.empty() && std::getenv("DTRACE_DEBUG") != nullptr && s_.warn)
				s_.warn("not watching pid " + std::to_string(pid) +
					" for objects it maps later: " + why);
		}
		// A system() command waits for the processes it starts, which
		// wait for us: see to them meanwhile.
		if (m.watching || m.execs)
			c.set_system_wait([this, &c] {
				impl &w = *impl_;
				if (w.stopped)
					return;
				if (w.execs)
					w.new_processes(prog_, c, s_.warn);
				w.stopped_processes(prog_, c, s_.warn);
			});
		m.procs.release();
		m.released = true;
		// What BEGIN traced is consumed at once, as dtrace_work() does
		// on its first call, before the first sleep; the status is
		// looked at then for the first time (dtrace_status()), and if
		// BEGIN called exit() the next call stops.
		m.eng->drain(c);
		if (!m.eng->exiting() && !c.exit_status())
			(void)m.status_due();
		return true;
	}
	bool done = false;
	bool procs_gone = false;
	if (m.execs && !m.stopped)
		m.new_processes(prog_, c, s_.warn);
	if (m.watching || m.execs)
		m.stopped_processes(prog_, c, s_.warn);
	if (!m.procs.empty()) {
		for (pid_t pid : m.procs.live_pids())
			c.note_process(pid);
		for (const std::string &n : m.procs.poll())
			if (s_.notice)
				s_.notice(n);
		procs_gone = m.procs.live() == 0;
	}
	// ^C and the processes' end stop at once (dtrace.c's main loop);
	// exit() and a full fill buffer when the status says so
	// (dtrace_work() -> dtrace_status() -> DTRACE_STATUS_EXITED/FILLED,
	// which stops before it consumes).
	if (stop || procs_gone || (m.status_due() && (m.eng->exiting() || c.exit_status()))) {
		done = true;
		stop_engine();
	}
	if (abandon)
		return false;
	m.eng->drain(c);
	// setopt("switchrate", ...) takes effect for the next sleep.
	if (std::optional<uint64_t> r = c.switchrate())
		m.switchrate = m.procs.empty() ? *r : std::min<uint64_t>(*r, 50'000'000);
	return !done;
}

void session::stop_engine()
{
	if (impl_->stopped)
		return;
	impl_->stopped = true;
	if (impl_->execs) // nothing stops for us any more
		impl_->execs->finish();
	impl_->watch.finish();
	impl_->eng->stop();
}

session::stability session::piece_stability(size_t piece) const
{
	size_t end =
		piece + 1 < first_clause_.size() ? first_clause_[piece + 1] : prog_.clauses.size();
	if (first_clause_.at(piece) == end)
		return {k_attr_stable, k_attr_stable};
	stability s{k_attr_max, k_attr_max};
	for (size_t i = first_clause_[piece]; i < end; i++) {
		s.desc = attr_min(s.desc, prog_.clauses[i].desc_attr);
		s.stmt = attr_min(s.stmt, prog_.clauses[i].stmt_attr);
	}
	return s;
}

} // namespace dt
