// SPDX-License-Identifier: MIT
//
// dtrace/plugin.hpp - optional C++ helpers for writing a provider plugin.
//
// Header-only and part of the SDK, so a plugin built out of tree gets
// the same helpers as the in-tree ones without linking anything of
// libdtrace. The ABI itself is dtrace/plugin.h; nothing here changes it.
//
//   guard(fn)            run a plugin op, turning exceptions into -errno
//   is_glob / field_matches
//                        DTrace's glob rules for the query's hint fields
//   table_probe, report_table, report_table_args
//                        probes described by a constant table (proc, tcp)
//   bpf_attach_desc, give_attach
//                        fill a dt_bpf_attach_t for the bpf engine's hook
//   fire_desc, give_fire fill a dt_probe_fire_t for the fires() op
//   tp_probe, tracepoint_provider, tracepoint_ops
//                        a tracepoint-backed provider as one table (proc, tcp)
#pragma once

#include <dtrace/plugin.h>

#include <fnmatch.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dt::sdk {

// Run one plugin operation. No exception may cross the C ABI: an
// allocation failure becomes -ENOMEM, anything else -EIO.
template <typename F>
[[nodiscard]] int guard(F &&fn) noexcept
{
	try {
		return fn();
	} catch (const std::bad_alloc &) {
		return -ENOMEM;
	} catch (...) {
		return -EIO;
	}
}

// The kmod table (plugin.h dt_plugin_kmod_ops_t) of a kernel half that
// finds its own probes: `module` is what the kmod engine loads, its
// provider registers under the plugin's name, and every later hook is
// NULL, so a field appended to the ABI needs no change here.
[[nodiscard]] constexpr dt_plugin_kmod_ops_t kernel_module(const char *module)
{
	dt_plugin_kmod_ops_t k{};
	k.sz = sizeof(dt_plugin_kmod_ops_t);
	k.module = module;
	return k;
}

// True if `pattern` has a glob metacharacter (* ? [ \).
[[nodiscard]] inline bool is_glob(std::string_view pattern)
{
	return pattern.find_first_of("*?[\\") != std::string_view::npos;
}

// A query field against a name: NULL or "" matches anything; otherwise
// DTrace's gmatch rules, which are fnmatch(3) with no flags.
[[nodiscard]] inline bool field_matches(const char *glob, const char *name)
{
	return glob == nullptr || *glob == '\0' || fnmatch(glob, name, 0) == 0;
}

// One argument of a table-described probe; a NULL `native` ends the list.
struct table_arg {
	int32_t mapping;    // the native argument args[n] is built from
	const char *native; // C type at the probe site
	const char *xlate;  // D type through a translator, or NULL
};

// A probe of a fixed table. Up to six typed arguments (the most any
// classic provider has: tcp:::state-change).
struct table_probe {
	const char *name;
	std::array<table_arg, 6> args;
};

namespace detail {

// report_table() over any row type with a `name`.
template <typename Row>
int report_rows(std::span<const Row> table, const char *provider, const char *mod, const char *func,
		dt_probe_cb cb, void *arg)
{
	for (uint64_t i = 0; i < table.size(); i++) {
		const char *f = func;
		if constexpr (requires { table[i].func; })
			if (table[i].func != nullptr)
				f = table[i].func; // rows that name their own function
		dt_probe_info_t p = {sizeof(p), provider, mod, f, table[i].name, i};
		if (cb(arg, &p))
			break;
	}
	return 0;
}

// The row report_rows() reported as `probe` (its cookie, checked by
// name), or NULL.
template <typename Row>
const Row *row_of(std::span<const Row> table, const dt_probe_info_t *probe)
{
	if (probe->cookie >= table.size() ||
	    std::strcmp(table[probe->cookie].name, probe->name) != 0)
		return nullptr;
	return &table[probe->cookie];
}

// report_table_args() over any row type with `name` and `args`.
template <typename Row>
int report_row_args(std::span<const Row> table, const dt_probe_info_t *probe, dt_arg_cb cb,
		    void *arg)
{
	const Row *row = row_of(table, probe);
	if (row == nullptr)
		return -ENOENT;
	int32_t ndx = 0;
	for (const table_arg &a : row->args) {
		if (a.native == nullptr)
			break;
		dt_arg_desc_t d = {sizeof(d), ndx++, a.mapping, a.native, a.xlate, nullptr};
		if (cb(arg, &d))
			break;
	}
	return 0;
}

} // namespace detail

// Report every probe of `table` as provider:mod:func:name, with the
// table index as its cookie. The host filters them against the query.
inline int report_table(std::span<const table_probe> table, const char *provider, const char *mod,
			const char *func, dt_probe_cb cb, void *arg)
{
	return detail::report_rows(table, provider, mod, func, cb, arg);
}

// Report the arguments of a probe that report_table() reported: found by
// its cookie and checked by name; -ENOENT for anything else.
inline int report_table_args(std::span<const table_probe> table, const dt_probe_info_t *probe,
			     dt_arg_cb cb, void *arg)
{
	return detail::report_row_args(table, probe, cb, arg);
}

// A dt_bpf_attach_t as this plugin was compiled, zeroed, sz set, and
// the argument map the identity (args[i] is raw argument i).
[[nodiscard]] inline dt_bpf_attach_t bpf_attach_desc(int32_t kind, const char *target = nullptr)
{
	dt_bpf_attach_t a;
	std::memset(&a, 0, sizeof(a));
	a.sz = sizeof(a);
	a.kind = kind;
	a.target = target;
	a.cpu = -1;
	a.pid = -1;
	for (int32_t i = 0; i < 10; i++)
		a.argmap[i] = i;
	return a;
}

// Hand a size-prefixed struct `v` to the host's `out`: only the fields
// the host's struct has (its sz, which the host set), so a host built
// against an older plugin.h never has memory written past its struct.
// out->sz is kept.
template <typename T>
inline void give_sized(T *out, const T &v)
{
	size_t host_sz = out->sz;
	size_t n = host_sz < sizeof(v) ? host_sz : sizeof(v);
	if (n > sizeof(v.sz))
		std::memcpy(reinterpret_cast<char *>(out) + sizeof(v.sz),
			    reinterpret_cast<const char *>(&v) + sizeof(v.sz), n - sizeof(v.sz));
	out->sz = host_sz;
}

// Hand `a` to the host's `out` (give_sized()).
inline void give_attach(dt_bpf_attach_t *out, const dt_bpf_attach_t &a)
{
	give_sized(out, a);
}

// A dt_probe_fire_t as this plugin was compiled: zeroed, sz set, with
// the event kind and the engines that can run it.
[[nodiscard]] inline dt_probe_fire_t fire_desc(int32_t kind, uint32_t engines,
					       const char *target = nullptr)
{
	dt_probe_fire_t f;
	std::memset(&f, 0, sizeof(f));
	f.sz = sizeof(f);
	f.kind = kind;
	f.engines = engines;
	f.target = target;
	return f;
}

// Hand `f` to the host's `out` (give_sized()).
inline void give_fire(dt_probe_fire_t *out, const dt_probe_fire_t &f)
{
	give_sized(out, f);
}

/*
 * A tracepoint-backed provider as one table.
 *
 *   constexpr tp_probe k_probes[] = {                    one row per probe
 *     {.name = "exit", .args = {...},                    typed arguments
 *      .event = "sched_process_exit", .nargs = 2,        raw tracepoint
 *      .argmap = {-1, -1, -1, -1, -1, -1},               args[i] <- raw arg
 *      .filter = {.arg = 1, .mask = 1, .value = 1},      fires when ...
 *      .kmod = true},                                    the kernel half has it
 *     ...};
 *   constexpr tracepoint_provider k_prov = {"proc", "vmlinux", k_probes};
 *   using ops = tracepoint_ops<k_prov, my_kernel>;       init fini probes
 *                                                        probe_args bpf fires
 *
 * The row is the probe's whole story for every consumer of it: probes()
 * and probe_args() report it, the bpf hook attaches the raw tracepoint
 * with the argument map and filter (refusing, with the row's `why`, a
 * probe without an event), and fires() describes it (DT_FIRE_RAW_TRACEPOINT
 * on `event`; engines: bpf when there is an event, kmod when the row says
 * the provider's kernel half has the probe).
 *
 * `Kernel` says how many arguments the running kernel's raw tracepoint
 * passes: a default-constructible type with
 * `std::optional<int> arity(const std::string &event)` (-1: no such
 * tracepoint; nullopt: cannot tell, take the row's nargs). The in-tree
 * providers use the kernel's BTF (plugins/common/raw_tracepoints.hpp);
 * no_kernel_knowledge believes the table.
 */

// A row's filter: the probe fires only when (raw argument `arg` >> shift)
// & mask == value (plugin.h dt_bpf_attach_t, ABI 1.2).
struct tp_filter {
	// The raw argument tested; k_none: no filter; k_context: the context's
	// own filter value (DT_BPF_CTX_SYS_ENTER/EXIT: the system call number).
	static constexpr int32_t k_none = -1;
	static constexpr int32_t k_context = -2;
	int32_t arg = k_none;
	uint32_t shift = 0;
	uint64_t mask = 0;
	int64_t value = 0;
	// Non-NULL: on a kernel whose tracepoint does not pass `arg`, fire
	// unfiltered rather than refuse, logging "<provider>:::<probe>
	// <unfiltered>" (what the probe then means).
	const char *unfiltered = nullptr;
	// Appended: >= 0: and only when raw argument zero_arg is 0 (a filter
	// program, plugin.h ABI 1.6: lockstat's wait that ended with the lock
	// taken, contention_end's ret).
	int32_t zero_arg = k_none;
};

struct tp_probe {
	const char *name;
	std::array<table_arg, 6> args; // typed arguments, as table_probe's
	const char *event;	       // the raw tracepoint; NULL: none (see why)
	uint32_t nargs = 0;	       // its TP_PROTO arity when the kernel cannot say
	// DT_BPF_CTX_RAW: args[i] is raw argument argmap[i] (-1: 0); the rest 0.
	std::array<int32_t, 6> argmap = {-1, -1, -1, -1, -1, -1};
	tp_filter filter = {};
	int32_t ctx = DT_BPF_CTX_RAW; // how the bpf program reads the event
	bool kmod = false;	      // the provider's kernel half has the probe
	const char *why = nullptr;    // no event: what the probe would need
	// The probe's function (NULL: ""). Several rows may share a name when
	// their functions differ: illumos' sched:::sleep is one probe in each
	// of cv_block, sema_p ...; a description naming the probe matches all.
	const char *func = nullptr;
	// Appended: non-NULL: `event` ends an interval that this raw
	// tracepoint begins (plugin.h ABI 1.9), joined per thread where the
	// begin's raw argument begin_key equals the end's end_key; argmap and
	// the filter then number the raw arguments as dt_bpf_attach_t's pair
	// does (the begin's, the end's, the time between them), and nargs is
	// the end's arity, begin_nargs the begin's when the kernel cannot say.
	const char *begin = nullptr;
	uint32_t begin_nargs = 0;
	int32_t begin_key = -1;
	int32_t end_key = -1;
};

struct tracepoint_provider {
	const char *provider;
	const char *mod;
	std::span<const tp_probe> probes;
};

// Believes the table: every tracepoint exists with the row's nargs.
struct no_kernel_knowledge {
	std::optional<int> arity(const std::string &) { return std::nullopt; }
};

// fires() for a row (see above).
inline dt_probe_fire_t tp_fire(const tp_probe &row)
{
	uint32_t engines =
		(row.event != nullptr ? DT_ENGINE_BPF : 0) | (row.kmod ? DT_ENGINE_KMOD : 0);
	return fire_desc(row.event != nullptr ? DT_FIRE_RAW_TRACEPOINT : DT_FIRE_NONE, engines,
			 row.event);
}

// The bpf hook for a row, with the running kernel's arity of its event
// (see Kernel above); host->log says why a probe cannot be attached.
inline int tp_attach(const tracepoint_provider &p, const dt_plugin_host_t *host,
		     const tp_probe &row, std::optional<int> arity, dt_bpf_attach_t *out,
		     std::optional<int> begin_arity = std::nullopt)
{
	if (row.event == nullptr) {
		host->log(host, DT_LOG_WARN, "%s:::%s needs %s", p.provider, row.name, row.why);
		return -ENOTSUP;
	}
	if (arity && *arity < 0) {
		host->log(host, DT_LOG_WARN,
			  "%s:::%s needs the %s tracepoint, which this kernel does not have",
			  p.provider, row.name, row.event);
		return -ENOTSUP;
	}
	if (row.begin != nullptr && begin_arity && *begin_arity < 0) {
		host->log(host, DT_LOG_WARN,
			  "%s:::%s needs the %s tracepoint, which this kernel does not have",
			  p.provider, row.name, row.begin);
		return -ENOTSUP;
	}
	dt_bpf_attach_t a = bpf_attach_desc(DT_BPF_ATTACH_RAW_TRACEPOINT, row.event);
	a.nargs = arity ? static_cast<uint32_t>(*arity) : row.nargs;
	a.ctx = row.ctx;
	// The raw arguments argmap and the filter read: with a begin, its
	// arguments, the end's and the time between them.
	uint32_t nraw = a.nargs;
	if (row.begin != nullptr) {
		a.begin_kind = DT_BPF_ATTACH_RAW_TRACEPOINT;
		a.begin_target = row.begin;
		a.begin_nargs = begin_arity ? static_cast<uint32_t>(*begin_arity) : row.begin_nargs;
		a.begin_key = row.begin_key;
		a.end_key = row.end_key;
		nraw = a.begin_nargs + a.nargs + 1;
		// Rows number the arguments for the table's arities.
		if (a.begin_nargs != row.begin_nargs || a.nargs != row.nargs) {
			host->log(host, DT_LOG_WARN,
				  "%s:::%s: this kernel's %s and %s pass %u and %u arguments, "
				  "not %u and %u",
				  p.provider, row.name, row.begin, row.event, a.begin_nargs,
				  a.nargs, row.begin_nargs, row.nargs);
			return -ENOTSUP;
		}
	}
	const tp_filter &f = row.filter;
	if (f.arg == tp_filter::k_context) {
		a.has_filter = 1;
		a.filter = f.value;
	}
	if (row.ctx != DT_BPF_CTX_RAW) {
		give_attach(out, a);
		return 0;
	}
	for (int32_t &m : a.argmap)
		m = -1;
	for (size_t k = 0; k < row.argmap.size(); k++)
		if (row.argmap[k] < static_cast<int32_t>(nraw))
			a.argmap[k] = row.argmap[k];
	a.has_argmap = 1;
	if (f.arg >= static_cast<int32_t>(nraw)) {
		if (f.unfiltered == nullptr) {
			host->log(host, DT_LOG_WARN,
				  "%s:::%s needs argument %d of the %s tracepoint, which this "
				  "kernel does not pass",
				  p.provider, row.name, f.arg, row.event);
			return -ENOTSUP;
		}
		host->log(host, DT_LOG_DEBUG,
			  "%s:::%s %s: this kernel's %s does not pass argument %d", p.provider,
			  row.name, f.unfiltered, row.event, f.arg);
	} else if (f.arg >= 0) {
		a.has_filter = 1;
		a.filter = f.value;
		a.has_filter_arg = 1;
		a.filter_arg = f.arg;
		a.filter_shift = f.shift;
		a.filter_mask = f.mask;
		if (f.zero_arg >= 0 && f.zero_arg < static_cast<int32_t>(nraw)) {
			// arg zero_arg == 0 or DROP; then (arg >> shift) & mask.
			const dt_bpf_filter_step_t steps[] = {
				{DT_BPF_FOP_ARG, f.zero_arg, 0},
				{DT_BPF_FOP_JEQ, 1, 0},
				{DT_BPF_FOP_DROP, 0, 0},
				{DT_BPF_FOP_ARG, f.arg, 0},
				{DT_BPF_FOP_RSH, 0, f.shift},
				{DT_BPF_FOP_AND, 0, static_cast<int64_t>(f.mask)},
			};
			a.filter_nsteps = sizeof(steps) / sizeof(steps[0]);
			std::memcpy(a.filter_steps, steps, sizeof(steps));
		}
	}
	give_attach(out, a);
	return 0;
}

// The plugin ops of a tracepoint_provider (see above): point the ops
// table's init, fini, probes, probe_args, bpf attach and fires at these.
template <const tracepoint_provider &P, typename Kernel = no_kernel_knowledge>
struct tracepoint_ops {
	struct state {
		const dt_plugin_host_t *host;
		Kernel kernel;
	};

	static int init(const dt_plugin_host_t *host, void **st)
	{
		return guard([&] {
			*st = new state{host, {}};
			return 0;
		});
	}
	static void fini(void *st) { delete static_cast<state *>(st); }
	// A few constant rows: reporting them all is cheaper than reading
	// the query, and the host filters them against it.
	static int probes(void *, const dt_probe_query_t *, dt_probe_cb cb, void *arg)
	{
		return guard([&] {
			return detail::report_rows(P.probes, P.provider, P.mod, "", cb, arg);
		});
	}
	static int probe_args(void *, const dt_probe_info_t *probe, dt_arg_cb cb, void *arg)
	{
		return guard([&] { return detail::report_row_args(P.probes, probe, cb, arg); });
	}
	static int bpf_attach(void *st, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
	{
		return guard([&] {
			auto *s = static_cast<state *>(st);
			const tp_probe *row = detail::row_of(P.probes, probe);
			if (row == nullptr)
				return -ENOENT;
			std::optional<int> arity, begin_arity;
			if (row->event != nullptr)
				arity = s->kernel.arity(row->event);
			if (row->begin != nullptr)
				begin_arity = s->kernel.arity(row->begin);
			return tp_attach(P, s->host, *row, arity, out, begin_arity);
		});
	}
	static int fires(void *, const dt_probe_info_t *probe, dt_probe_fire_t *out)
	{
		const tp_probe *row = detail::row_of(P.probes, probe);
		if (row == nullptr)
			return -ENOENT;
		give_fire(out, tp_fire(*row));
		return 0;
	}

	static constexpr dt_plugin_bpf_ops_t bpf_ops = {
		.sz = sizeof(dt_plugin_bpf_ops_t),
		.attach = bpf_attach,
	};

	// The plugin's ops table (for DT_PLUGIN_DEFINE): the provider named
	// by the table, these functions, and what only the provider knows.
	// `bpf`: a hook of the provider's own (one that filters more than a
	// row says), else the row-driven bpf_ops above.
	static constexpr dt_plugin_ops_t plugin(const char *description, const dt_pattr_t &attr,
						uint32_t priv, const dt_plugin_kmod_ops_t *kmod,
						const dt_plugin_bpf_ops_t *bpf = &bpf_ops)
	{
		return {
			.sz = sizeof(dt_plugin_ops_t),
			.abi_major = DT_PLUGIN_ABI_MAJOR,
			.abi_minor = DT_PLUGIN_ABI_MINOR,
			.name = P.provider,
			.description = description,
			.attr = attr,
			.priv = priv,
			.flags = 0,
			.init = init,
			.fini = fini,
			.probes = probes,
			.probe_args = probe_args,
			.kmod = kmod,
			.bpf = bpf,
			.fires = fires,
		};
	}
};

// The Guide's stability of the providers illumos builds on SDT probes (sdt.c
// sdt_attr for io, proc, sched, tcp, udp, ip): names and arguments
// Evolving/ISA, module and function Private (they are the kernel's).
inline constexpr dt_pattr_t k_sdt_stability = {
	{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
	{DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
	{DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
	{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
	{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
};

// illumos dt_flowindent(): a probe named "entry" or "<anything>-entry" is
// a function's entry for -F, "return" and "<anything>-return" its return
// (so a program's function-entry probes indent, and carpentry does not).
[[nodiscard]] inline int32_t flow_of_name(std::string_view n)
{
	auto is = [&](std::string_view w) {
		return n.size() >= w.size() && n.substr(n.size() - w.size()) == w &&
		       (n.size() == w.size() || n[n.size() - w.size() - 1] == '-');
	};
	return is("entry") ? DT_FLOW_ENTRY : is("return") ? DT_FLOW_RETURN : DT_FLOW_NONE;
}

} // namespace dt::sdk
