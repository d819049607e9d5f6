// SPDX-License-Identifier: MIT
// The provider registry: discovers plugins on the search path, loads them
// when a description could match them, and gives probes their IDs.
//
// Which plugins a description opens (load_for()): those whose provider
// name it could name (the file name dt_<name>.so; a per-process plugin
// also serves pid<digits>) and, when the file carries a DT_PLUGIN_NOTE
// (dtrace/plugin.h), whose probe-name globs its probe name could match.
// The note is read from the file, not dlopen()ed; a file without one is
// opened whenever its provider name could be named, as before notes.
#include "plugin_internal.hpp"

#include <dtrace/provider.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace fs = std::filesystem;

namespace dt {

bool provider::could_match(std::string_view glob) const
{
	if (glob.empty() || any_provider())
		return true;
	if (glob_match(glob, name()))
		return true;
	if (!per_process())
		return false;
	// pid1234 is served by the "pid" plugin. A glob (pid*) is decided by
	// the plugin, which knows the grabbed processes.
	std::string_view n = name();
	if (is_glob(glob))
		return true;
	if (!glob.starts_with(n) || glob.size() == n.size())
		return false;
	return std::all_of(glob.begin() + static_cast<long>(n.size()), glob.end(),
			   [](char c) { return c >= '0' && c <= '9'; });
}

struct provider_registry::impl {
	std::vector<std::string> search_path;
	std::vector<int32_t> procs;
	warning_fn warn;
	dt_plugin_host_t host{};
	// What plugins serving any provider (USDT) are given: procs and the
	// processes started after tracing began (set_late_processes()).
	std::vector<int32_t> any_procs;
	dt_plugin_host_t any_host{};
	std::string *capture = nullptr; // bpf_attach(): collect, do not print
	// The first description error a plugin raised in this probes() call
	// (host desc_error): its tag and message.
	std::optional<std::pair<std::string, std::string>> refused;

	// A discovered plugin file and, once read, its note.
	struct plugin_file {
		std::string path;
		bool note_read = false;
		bool has_note = false;
		detail::plugin_note note;
	};
	// Discovered plugin files, by provider name (first on the path wins).
	std::map<std::string, plugin_file> available;
	std::set<std::string> attempted; // loaded or failed
	std::unique_ptr<provider> builtin;
	std::map<std::string, std::unique_ptr<provider>> loaded;

	using key = std::tuple<std::string, std::string, std::string, std::string>;
	std::map<key, std::unique_ptr<probe>> by_name;
	// match()'s answers, while no further plugin is loaded: the compiler,
	// the engine choice, the front half and a listing ask for the same
	// descriptions, and a provider answers (and warns) once.
	std::map<key, std::vector<const probe *>> matched;
	size_t matched_nloaded = 0;
	uint32_t next_id = 1;

	void discover()
	{
		for (const auto &dir : search_path) {
			std::error_code ec;
			std::vector<fs::path> files;
			for (const auto &e : fs::directory_iterator(dir, ec))
				files.push_back(e.path());
			std::sort(files.begin(), files.end());
			for (const auto &f : files) {
				std::string name;
				if (!detail::plugin_file_name(f.filename().string(), name))
					continue;
				plugin_file pf;
				pf.path = f.string();
				available.emplace(name, std::move(pf)); // keeps the first
			}
		}
	}

	void load(const std::string &name)
	{
		if (!attempted.insert(name).second)
			return;
		auto it = available.find(name);
		if (it == available.end())
			return;
		const std::string &path = it->second.path;
		std::string why;
		const detail::plugin_note *n = note_of(it->second);
		const bool any = n != nullptr && (n->flags & DT_PLUGIN_F_ANY_PROVIDER) != 0;
		auto p = detail::load_plugin(path, name, any ? &any_host : &host, warn, why);
		if (!p) {
			warn("failed to load provider plugin " + path + ": " + why);
			return;
		}
		if (std::getenv("DTRACE_DEBUG") != nullptr)
			warn("loaded provider plugin " + path);
		loaded.emplace(name, std::move(p));
	}

	// A plugin's printf-style message, as the host callbacks keep it (at
	// most 1023 bytes).
	static std::string vformat(const char *fmt, va_list ap)
		__attribute__((format(printf, 1, 0)))
	{
		char buf[1024];
		std::vsnprintf(buf, sizeof(buf), fmt, ap);
		return buf;
	}

	// The host's log callback: plugin messages become warnings.
	static void host_log(const dt_plugin_host_t *host, int level, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)))
	{
		if (level == DT_LOG_DEBUG && std::getenv("DTRACE_DEBUG") == nullptr)
			return;
		va_list ap;
		va_start(ap, fmt);
		std::string buf = vformat(fmt, ap);
		va_end(ap);
		auto *self = static_cast<impl *>(host->host_private);
		if (self->capture != nullptr && level != DT_LOG_DEBUG) {
			if (!self->capture->empty())
				*self->capture += "; ";
			*self->capture += buf;
			return;
		}
		self->warn(buf);
	}

	// The host's desc_error callback (plugin.h, ABI 1.8): kept until the
	// plugin's probes() returns, then thrown by match().
	static void host_desc_error(const dt_plugin_host_t *host, const char *tag, const char *fmt,
				    ...) __attribute__((format(printf, 3, 4)))
	{
		auto *self = static_cast<impl *>(host->host_private);
		if (self->refused)
			return;
		va_list ap;
		va_start(ap, fmt);
		std::string buf = vformat(fmt, ap);
		va_end(ap);
		self->refused.emplace(tag != nullptr ? tag : "", std::move(buf));
	}

	// Could plugin file `name` serve providers matching this glob? (Before
	// loading we only know the file's name; per-process plugins are
	// recognised by a literal pid<digits> or any glob.)
	[[nodiscard]] bool may_serve(const std::string &name, std::string_view glob) const
	{
		if (glob.empty() || glob_match(glob, name) || is_glob(glob))
			return true;
		if (!glob.starts_with(name) || glob.size() == name.size())
			return false;
		return std::all_of(glob.begin() + static_cast<long>(name.size()), glob.end(),
				   [](char c) { return c >= '0' && c <= '9'; });
	}

	[[nodiscard]] const detail::plugin_note *note_of(plugin_file &f)
	{
		if (!f.note_read) {
			f.note_read = true;
			f.has_note = detail::read_plugin_note(f.path, f.note);
		}
		return f.has_note ? &f.note : nullptr;
	}

	// Is a literal provider name another plugin's (or the dtrace
	// provider's)? Per-process names count with their digits (pid123).
	[[nodiscard]] bool names_a_plugin(std::string_view prov) const
	{
		if (prov.empty() || is_glob(prov))
			return false;
		if (prov == "dtrace" || available.contains(std::string(prov)))
			return true;
		size_t end = prov.find_last_not_of("0123456789");
		return end != std::string_view::npos && end + 1 < prov.size() &&
		       available.contains(std::string(prov.substr(0, end + 1)));
	}

	// Does a plugin serving any provider (DT_PLUGIN_F_ANY_PROVIDER) take
	// a description of this provider? A literal that is no other
	// plugin's; a glob or "" only when processes were given.
	[[nodiscard]] bool any_provider_takes(std::string_view prov) const
	{
		if (prov.empty() || is_glob(prov))
			return !any_procs.empty();
		return !names_a_plugin(prov);
	}

	// Could the plugin in `f` report a probe matching `d`, as far as its
	// note says? (Yes when it has none.) A per-process plugin serves a
	// provider glob or "" only for the processes given (plugin.h).
	[[nodiscard]] bool may_have(plugin_file &f, const probe_desc &d)
	{
		if (note_of(f) == nullptr)
			return true;
		if ((f.note.flags & DT_PLUGIN_F_PER_PROCESS) != 0 && procs.empty() &&
		    (d.provider.empty() || is_glob(d.provider)))
			return false;
		if (d.name.empty())
			return true;
		bool literal = !is_glob(d.name);
		return std::any_of(f.note.names.begin(), f.note.names.end(),
				   [&](const std::string &g) {
					   // Two globs: assume they can meet.
					   return literal ? glob_match(g, d.name)
							  : is_glob(g) || glob_match(d.name, g);
				   });
	}
};

provider_registry::provider_registry(std::vector<std::string> search_path,
				     std::vector<int32_t> procs, warning_fn warn)
	: impl_(std::make_unique<impl>()), tracefs_(detail::find_tracefs())
{
	impl_->search_path = std::move(search_path);
	impl_->procs = std::move(procs);
	impl_->warn = warn ? std::move(warn) : [](const std::string &) {};
	auto &h = impl_->host;
	h.sz = sizeof(h);
	h.abi_major = DT_PLUGIN_ABI_MAJOR;
	h.abi_minor = DT_PLUGIN_ABI_MINOR;
	h.log = &impl::host_log;
	h.tracefs = tracefs_.empty() ? nullptr : tracefs_.c_str();
	h.procs = impl_->procs.data();
	h.nprocs = static_cast<uint32_t>(impl_->procs.size());
	h.host_private = impl_.get();
	h.desc_error = &impl::host_desc_error;
	impl_->any_procs = impl_->procs;
	impl_->any_host = h;
	impl_->any_host.procs = impl_->any_procs.data();
	impl_->discover();
	// The dtrace provider's probes are always IDs 1-3, as on illumos.
	impl_->builtin = detail::make_dtrace_provider();
	impl_->builtin->probes(
		dt_probe_query_t{sizeof(dt_probe_query_t), "", "", "", ""},
		[this](const dt_probe_info_t &info) { intern(impl_->builtin.get(), info); });
}

provider_registry::~provider_registry() = default;

void provider_registry::load_all()
{
	for (const auto &[name, file] : impl_->available)
		impl_->load(name);
}

void provider_registry::load_matching(std::string_view provider_glob)
{
	for (const auto &[name, file] : impl_->available)
		if (impl_->may_serve(name, provider_glob))
			impl_->load(name);
}

void provider_registry::load_for(const probe_desc &d)
{
	for (auto &[name, file] : impl_->available) {
		const detail::plugin_note *n = impl_->note_of(file);
		bool serves = n != nullptr && (n->flags & DT_PLUGIN_F_ANY_PROVIDER) != 0
				      ? impl_->any_provider_takes(d.provider)
				      : impl_->may_serve(name, d.provider);
		// A process's provider named literally (pid123) loads its
		// plugin whatever the probe name: the plugin judges the name,
		// and may refuse it with DTrace's diagnostic (host desc_error).
		bool named = n != nullptr && (n->flags & DT_PLUGIN_F_PER_PROCESS) != 0 &&
			     !d.provider.empty() && !is_glob(d.provider) &&
			     impl_->may_serve(name, d.provider);
		if (serves && (named || impl_->may_have(file, d)))
			impl_->load(name);
	}
}

const probe *provider_registry::intern(provider *prov, const dt_probe_info_t &info)
{
	impl::key k{info.provider, info.mod, info.func, info.name};
	auto it = impl_->by_name.find(k);
	if (it != impl_->by_name.end())
		return it->second.get();
	auto p = std::make_unique<probe>();
	p->id = impl_->next_id++;
	p->desc = {info.provider, info.mod, info.func, info.name};
	p->cookie = info.cookie;
	p->prov = prov;
	const probe *raw = p.get();
	impl_->by_name.emplace(std::move(k), std::move(p));
	return raw;
}

std::vector<provider *> provider_registry::providers() const
{
	std::vector<provider *> v{impl_->builtin.get()};
	for (const auto &[name, p] : impl_->loaded)
		v.push_back(p.get());
	return v;
}

provider *provider_registry::find_provider(std::string_view name) const
{
	provider *any = nullptr;
	for (provider *p : providers()) {
		if (is_glob(name) || !p->could_match(name))
			continue;
		if (!p->any_provider())
			return p;
		if (impl_->any_provider_takes(name))
			any = p;
	}
	return any;
}

std::vector<const probe *> provider_registry::match(const probe_desc &d)
{
	load_for(d);
	if (impl_->matched_nloaded != impl_->loaded.size()) {
		impl_->matched.clear();
		impl_->matched_nloaded = impl_->loaded.size();
	}
	impl::key k{d.provider, d.mod, d.func, d.name};
	if (auto it = impl_->matched.find(k); it != impl_->matched.end())
		return it->second;
	std::vector<const probe *> out;
	std::set<const probe *> seen;
	dt_probe_query_t q{sizeof(q), d.provider.c_str(), d.mod.c_str(), d.func.c_str(),
			   d.name.c_str()};
	for (provider *prov : providers()) {
		if (!prov->could_match(d.provider) ||
		    (prov->any_provider() && !impl_->any_provider_takes(d.provider)))
			continue;
		int rc = prov->probes(q, [&](const dt_probe_info_t &info) {
			if (!desc_matches(d, info.provider, info.mod, info.func, info.name))
				return;
			const probe *p = intern(prov, info);
			if (seen.insert(p).second)
				out.push_back(p);
		});
		if (impl_->refused) {
			auto [tag, message] = std::move(*impl_->refused);
			impl_->refused.reset();
			throw desc_refused(tag, message);
		}
		if (rc < 0)
			impl_->warn(std::string("provider ") + prov->name() +
				    " could not list its probes: " + std::strerror(-rc));
	}
	std::sort(out.begin(), out.end(),
		  [](const probe *a, const probe *b) { return a->id < b->id; });
	impl_->matched.emplace(std::move(k), out);
	return out;
}

bool provider_registry::names_process_provider(std::string_view provider_glob) const
{
	for (provider *p : providers()) {
		if (p->per_process() && p->could_match(provider_glob))
			return true;
		if (p->any_provider() && impl_->any_provider_takes(provider_glob))
			return true;
	}
	return false;
}

bool provider_registry::names_usdt_provider(std::string_view provider_glob)
{
	if (!provider_glob.empty() && !is_glob(provider_glob) &&
	    impl_->names_a_plugin(provider_glob))
		return false;
	return std::any_of(impl_->available.begin(), impl_->available.end(), [&](auto &kv) {
		const detail::plugin_note *n = impl_->note_of(kv.second);
		return n != nullptr && (n->flags & DT_PLUGIN_F_ANY_PROVIDER) != 0;
	});
}

void provider_registry::forget_matches()
{
	impl_->matched.clear();
}

void provider_registry::set_late_processes(const std::vector<int32_t> &late)
{
	impl_->any_procs = impl_->procs;
	for (int32_t pid : late)
		if (std::find(impl_->procs.begin(), impl_->procs.end(), pid) == impl_->procs.end())
			impl_->any_procs.push_back(pid);
	impl_->any_host.procs = impl_->any_procs.data();
	impl_->any_host.nprocs = static_cast<uint32_t>(impl_->any_procs.size());
	impl_->matched.clear();
}

std::vector<const probe *> provider_registry::all()
{
	load_all();
	return match(probe_desc{});
}

std::vector<arg_desc> provider_registry::args(const probe &p)
{
	std::vector<arg_desc> out;
	int rc = p.prov->args(p, out);
	if (rc < 0)
		impl_->warn("provider " + std::string(p.prov->name()) +
			    " could not describe the arguments of " + p.desc.str() + ": " +
			    std::strerror(-rc));
	std::sort(out.begin(), out.end(),
		  [](const arg_desc &a, const arg_desc &b) { return a.ndx < b.ndx; });
	return out;
}

int provider_registry::kmod_provide(const std::vector<const probe *> &probes, std::string &why)
{
	std::map<provider *, std::vector<const probe *>> by_prov;
	for (const probe *p : probes)
		if (p->prov != nullptr)
			by_prov[p->prov].push_back(p);
	why.clear();
	int rc = 0;
	for (auto &[prov, ps] : by_prov) {
		impl_->capture = &why;
		int r = prov->kmod_provide(ps);
		impl_->capture = nullptr;
		if (r < 0 && r != -ENOSYS) {
			rc = r;
			break;
		}
	}
	return rc;
}

int provider_registry::bpf_attach(const probe &p, dt_bpf_attach_t &out, std::string &why)
{
	why.clear();
	impl_->capture = &why;
	int rc = p.prov->bpf_attach(p, out);
	impl_->capture = nullptr;
	return rc;
}

} // namespace dt
