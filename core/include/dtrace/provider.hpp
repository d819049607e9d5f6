// SPDX-License-Identifier: MIT
//
// dtrace/provider.hpp - the consumer's view of providers and their probes.
//
//   provider_registry                      one per dtrace invocation
//     ├── built-in "dtrace" provider       BEGIN, END, ERROR (ids 1-3)
//     └── plugin providers                 dt_<name>.so, loaded on demand
//            found on the search path (see plugin_search_path()), opened
//            with Poco::SharedLibrary only when a description could match
//            them (by provider name, and by probe name when the file
//            carries a DT_PLUGIN_NOTE); checked for ABI size and version
//            before use.
//
// Probe IDs are given out by the registry in the order probes are first
// seen: the dtrace provider first, then the plugins by provider name.
// (An engine that has its own probe table, such as the kernel module,
// supplies its IDs instead.)
//
// Errors: nothing here prints. Problems with a plugin (cannot be loaded,
// no entry point, wrong ABI, threw) become warnings delivered to the
// warning callback, and the plugin is skipped; the registry stays usable.
#pragma once

#include <dtrace/api.hpp>
#include <dtrace/error.hpp>

#include <dtrace/plugin.h>
#include <dtrace/probe_desc.hpp>

#include <cerrno>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

DT_API_BEGIN

namespace dt {

struct arg_desc {
	int ndx = 0;
	int mapping = 0;
	std::string native;
	std::string xlate; // empty when args[ndx] has the native type
	std::string name;  // empty when unknown

	// The type D programs see: the translated type, else the native one.
	[[nodiscard]] const std::string &d_type() const { return xlate.empty() ? native : xlate; }
};

class provider;

// How a probe fires: the provider's dt_probe_fire_t (plugin.h, "How a probe
// fires"), checked and parsed. For a plugin without the fires() op, or one
// that fails it, provider::fire() derives it: kind none, the engines whose
// tables the plugin has (bpf, kmod), no errno, and illumos' flow rule on the
// probe's name (dt_flowindent(): "entry", "return", "*-entry", "*-return").
enum class fire_kind { none, consumer, timer, tracepoint, raw_tracepoint, kprobe, uprobe, site };
enum class consumer_probe { none, begin, end, error };
enum class errno_source { none, return_arg0 };

struct probe_fire {
	fire_kind kind = fire_kind::none;
	consumer_probe consumer = consumer_probe::none; // kind consumer
	uint64_t period_ns = 0;				// kind timer
	bool per_cpu = false;				// kind timer: every CPU
	probe_flow flow = probe_flow::none;
	bool syscall = false; // the flow boundary is a system call's (-F: => <=)
	errno_source errno_src = errno_source::none;
	uint32_t engines = 0; // DT_ENGINE_*
	std::string target;   // the event's name, or empty

	[[nodiscard]] bool runs_on(uint32_t engine) const { return (engines & engine) != 0; }
};

// The names `dtrace -lv` prints for DT_ENGINE_* bits, in bit order.
[[nodiscard]] const char *engine_bit_name(uint32_t bit);

struct probe {
	uint32_t id = 0;
	probe_desc desc;
	uint64_t cookie = 0;
	provider *prov = nullptr;
};

// One provider: either the built-in dtrace provider or a loaded plugin.
class provider {
public:
	virtual ~provider() = default;
	[[nodiscard]] virtual const dt_plugin_ops_t &ops() const = 0;
	// Where it came from ("built-in" or the .so's path).
	[[nodiscard]] virtual const std::string &origin() const = 0;
	[[nodiscard]] const char *name() const { return ops().name; }
	[[nodiscard]] bool per_process() const
	{
		return (ops().flags & DT_PLUGIN_F_PER_PROCESS) != 0;
	}
	// Serves providers of any name no other plugin serves (USDT).
	[[nodiscard]] bool any_provider() const
	{
		return (ops().flags & DT_PLUGIN_F_ANY_PROVIDER) != 0;
	}
	// Could a provider glob match one of this provider's names?
	[[nodiscard]] bool could_match(std::string_view provider_glob) const;
	// Enumerate probes that may match; returns 0 or a negative errno.
	virtual int probes(const dt_probe_query_t &q,
			   const std::function<void(const dt_probe_info_t &)> &cb) = 0;
	// The probe's arguments (empty if it has none or the plugin cannot say).
	virtual int args(const probe &p, std::vector<arg_desc> &out) = 0;
	// The bpf engine's hook (plugin.h dt_plugin_bpf_ops_t::attach): how to
	// attach `p`. `out` is zeroed with sz set first. -ENOSYS when the
	// provider has no bpf table; -ENOTSUP (host->log said why) when this
	// kernel lacks what it needs. Strings in `out` live until the next call.
	virtual int bpf_attach(const probe &p, dt_bpf_attach_t &out)
	{
		(void)p;
		(void)out;
		return -ENOSYS;
	}
	// The kmod engine's hand-over (plugin.h dt_plugin_kmod_ops_t::provide,
	// ABI 1.7): the kernel half is given these probes of this provider.
	// -ENOSYS when the plugin has no such hook (its kernel half finds its
	// probes itself).
	virtual int kmod_provide(const std::vector<const probe *> &probes)
	{
		(void)probes;
		return -ENOSYS;
	}
	// The plugin's fires() op (plugin.h, ABI 1.4): `out` is zeroed with sz
	// set first. -ENOSYS when the plugin has no such op.
	virtual int fires(const probe &p, dt_probe_fire_t &out)
	{
		(void)p;
		(void)out;
		return -ENOSYS;
	}
	// How `p` fires: fires() parsed, or the defaults derived from the ops
	// table when the plugin cannot say (see probe_fire).
	[[nodiscard]] probe_fire fire(const probe &p);
};

// A provider refused a description (plugin.h, host desc_error, ABI 1.8):
// DTrace's message, and the compiler's diagnostic tag for it ("D_PROC_FUNC").
// Thrown by provider_registry::match(); the compiler reports it as the
// description's compile error.
class desc_refused : public error {
public:
	desc_refused(std::string tag, const std::string &message)
		: error(errc::compile, message), tag_(std::move(tag))
	{
	}
	[[nodiscard]] const std::string &tag() const noexcept { return tag_; }

private:
	std::string tag_;
};

using warning_fn = std::function<void(const std::string &)>;

// Where plugins are looked for, in order: $DTRACE_PLUGIN_PATH (colon
// separated), <dir of the running executable>/../lib/dtrace/plugins (the
// build tree and a relocated install), and the configured install dir.
[[nodiscard]] std::vector<std::string> plugin_search_path();

class provider_registry {
public:
	// `procs`: processes given with -p/-c (the pid provider's targets).
	provider_registry(std::vector<std::string> search_path, std::vector<int32_t> procs,
			  warning_fn warn);
	~provider_registry();
	provider_registry(const provider_registry &) = delete;
	provider_registry &operator=(const provider_registry &) = delete;

	// Load every plugin (for a plain `dtrace -l`).
	void load_all();
	// Load the plugins that could serve this provider glob.
	void load_matching(std::string_view provider_glob);
	// Load the plugins that could report a probe matching `d`: those
	// load_matching(d.provider) loads, less those whose DT_PLUGIN_NOTE
	// (plugin.h) says no probe name of theirs could match d.name.
	void load_for(const probe_desc &d);

	// Every probe matching `d`, in ID order, loading plugins as needed
	// (load_for(d)).
	// Each provider is asked once per description. Throws desc_refused
	// when a provider refuses the description (a pid probe name that is
	// neither entry, return nor an offset).
	std::vector<const probe *> match(const probe_desc &d);
	// Forget what match() answered (it asks each provider once per
	// description): the processes' objects changed (dlopen, dlclose).
	// Probes keep their ids.
	void forget_matches();
	// Processes started after tracing began whose probes a provider of
	// any name (USDT) may report for a provider glob or "" as it does
	// for those given with -p/-c; the pid provider is not told of them
	// (docs/usdt.md, "Processes started later"). Replaces the last list;
	// implies forget_matches().
	void set_late_processes(const std::vector<int32_t> &late);
	// Could a provider of a process (pid, USDT) loaded now answer to
	// this provider glob? (Probes of objects mapped later: docs/usdt.md.)
	[[nodiscard]] bool names_process_provider(std::string_view provider_glob) const;
	// Could a provider of any name (USDT, loaded or not) answer to this
	// provider glob, or name, for a process started later? No for a name
	// that is another plugin's.
	[[nodiscard]] bool names_usdt_provider(std::string_view provider_glob);
	// Every probe of every provider (implies load_all()).
	std::vector<const probe *> all();

	// The probe's arguments, as the provider describes them.
	[[nodiscard]] std::vector<arg_desc> args(const probe &p);

	// p.prov->bpf_attach(p, out), with what the plugin logs at warning or
	// error level meanwhile collected into `why` instead of printed.
	[[nodiscard]] int bpf_attach(const probe &p, dt_bpf_attach_t &out, std::string &why);

	// For each provider with a kmod provide hook (plugin.h, ABI 1.7), hand
	// its kernel half its probes among `probes`; what the plugins log
	// meanwhile goes to `why`. 0, or the first hook's negative errno.
	[[nodiscard]] int kmod_provide(const std::vector<const probe *> &probes, std::string &why);

	// How the probe fires (p.prov->fire(p)); kind none and no engine for a
	// probe without a provider.
	[[nodiscard]] probe_fire fire(const probe &p);

	// Providers loaded so far, the built-in one first.
	[[nodiscard]] std::vector<provider *> providers() const;
	// The provider that owns a provider name (pid1234 -> pid), if loaded.
	[[nodiscard]] provider *find_provider(std::string_view name) const;
	[[nodiscard]] const std::string &tracefs() const { return tracefs_; }

private:
	struct impl;
	std::unique_ptr<impl> impl_;
	std::string tracefs_;
	const probe *intern(provider *prov, const dt_probe_info_t &info);
};

} // namespace dt

DT_API_END
