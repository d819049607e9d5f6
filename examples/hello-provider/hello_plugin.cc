// SPDX-License-Identifier: MIT
// The hello provider: an out-of-tree example built against the installed
// DTrace SDK only (find_package(DtraceSDK)). It describes the static probe
// sites of a demo "application" the way an in-tree plugin describes its
// provider, so that `dtrace -l` / `dtrace -lv` list them:
//
//   demo program site                       DTrace probe
//   -----------------                       ------------
//   greet(who, times), on entry      ->     hello:demo:greet:entry
//   greet(who, times), on return     ->     hello:demo:greet:return
//   tick(n), each time it runs       ->     hello:demo:tick:fire
//
// The demo application is the provider's kernel half, kernel/dtrace_hello.c
// (dtrace_hello.ko, also built against the installed SDK): the kmod engine
// loads it (k_kmod_ops) and it fires these probes. There is no bpf half
// (the bpf table is NULL, which the consumer reports by name). fires()
// says so per probe: DT_FIRE_SITE, the kmod engine only.
//
// dtrace/plugin.hpp, the SDK's optional C++ helpers, supplies guard() and
// is_glob(). Its table_probe/report_table() suit a provider whose probes
// share one function and have unnamed arguments (proc, tcp); these sites
// differ in function and name their arguments, so the table is our own.
#include <dtrace/plugin.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>

namespace dt::plugin::hello {
namespace {

struct arg_spec {
	const char *native;
	const char *xlate; // nullptr: args[N] has the native type
	const char *name;
};

struct probe_spec {
	const char *func;
	const char *name;
	const arg_spec *args;
	size_t nargs;
};

constexpr const char *k_provider = "hello";
constexpr const char *k_module = "demo";

// greet() gets a C string; D programs see it as `string` (like the
// illumos syscall provider's pathname arguments).
constexpr arg_spec k_greet_entry_args[] = {
	{"const char *", "string", "who"},
	{"int", nullptr, "times"},
};
constexpr arg_spec k_greet_return_args[] = {
	{"int", nullptr, "rval"},
};
constexpr arg_spec k_tick_fire_args[] = {
	{"uint64_t", nullptr, "n"},
};

// The probe's index in this table is its cookie.
constexpr probe_spec k_probes[] = {
	{"greet", "entry", k_greet_entry_args, std::size(k_greet_entry_args)},
	{"greet", "return", k_greet_return_args, std::size(k_greet_return_args)},
	{"tick", "fire", k_tick_fire_args, std::size(k_tick_fire_args)},
};

// A query field rules a probe out only when it is a plain name that
// differs; globs and "" are left to the host, which filters everything.
bool may_match(const char *query, const char *value)
{
	if (query == nullptr || *query == '\0' || dt::sdk::is_glob(query))
		return true;
	return std::strcmp(query, value) == 0;
}

// No C++ exception may cross the C ABI (plugin.h). This table is static
// and nothing below throws today, but every op still runs its body through
// dt::sdk::guard() (bad_alloc -> -ENOMEM, anything else -EIO), the pattern
// a provider that allocates needs.
int hello_probes(void *, const dt_probe_query_t *q, dt_probe_cb cb, void *arg)
{
	return dt::sdk::guard([&] {
		if (q != nullptr && !may_match(q->mod, k_module))
			return 0;
		for (size_t i = 0; i < std::size(k_probes); i++) {
			const probe_spec &s = k_probes[i];
			if (q != nullptr &&
			    (!may_match(q->func, s.func) || !may_match(q->name, s.name)))
				continue;
			dt_probe_info_t p = {sizeof(p), k_provider, k_module, s.func, s.name, i};
			if (cb(arg, &p))
				break;
		}
		return 0;
	});
}

int hello_probe_args(void *, const dt_probe_info_t *probe, dt_arg_cb cb, void *arg)
{
	return dt::sdk::guard([&] {
		if (probe == nullptr || probe->cookie >= std::size(k_probes))
			return -ENOENT;
		const probe_spec &s = k_probes[probe->cookie];
		for (size_t i = 0; i < s.nargs; i++) {
			dt_arg_desc_t d = {};
			d.sz = sizeof(d);
			d.ndx = static_cast<int32_t>(i);
			d.mapping = d.ndx; // args[N] is the site's Nth argument
			d.native = s.args[i].native;
			d.xlate = s.args[i].xlate;
			d.name = s.args[i].name;
			if (cb(arg, &d))
				break;
		}
		return 0;
	});
}

// How a probe fires: at its static site in the kernel half (the kmod
// engine only); greet's entry and return are a function boundary (-F).
int hello_fires(void *, const dt_probe_info_t *probe, dt_probe_fire_t *out)
{
	if (probe == nullptr || probe->cookie >= std::size(k_probes))
		return -ENOENT;
	const probe_spec &s = k_probes[probe->cookie];
	dt_probe_fire_t f = dt::sdk::fire_desc(DT_FIRE_SITE, DT_ENGINE_KMOD, s.func);
	if (std::strcmp(s.name, "entry") == 0)
		f.flow = DT_FLOW_ENTRY;
	else if (std::strcmp(s.name, "return") == 0)
		f.flow = DT_FLOW_RETURN;
	dt::sdk::give_fire(out, f);
	return 0;
}

// The kernel half the kmod engine loads (<module>.ko from its module
// directories, see docs/plugins.md); it registers provider "hello" too.
const dt_plugin_kmod_ops_t k_kmod_ops = dt::sdk::kernel_module("dtrace_hello");

// Attributes, as for an application's own (USDT-style) provider on
// illumos: the provider and probe names are an interface the application
// promises to keep for now (Evolving, Common), the module and function
// names are its implementation detail (Private), and the arguments are
// Evolving with the names.
//
// Privilege: the sites are in the kernel (dtrace_hello.ko) and arg0 of
// greet:entry is a kernel address, so enabling them takes the kernel
// privilege (dtrace_kernel), as the kernel half registers them.
const dt_plugin_ops_t k_hello_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = k_provider,
	.description = "Example application provider built with the DTrace SDK",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON}},
	.priv = DT_PRIV_KERNEL,
	.flags = 0,
	.init = nullptr,
	.fini = nullptr,
	.probes = hello_probes,
	.probe_args = hello_probe_args,
	.kmod = &k_kmod_ops,
	.bpf = nullptr,
	.fires = hello_fires,
};

} // namespace
} // namespace dt::plugin::hello

extern "C" {
DT_PLUGIN_DEFINE(dt::plugin::hello::k_hello_ops)
}
