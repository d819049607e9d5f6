// SPDX-License-Identifier: MIT
// The profile provider (dt_profile.so): timed probes, as illumos
// profile.c. The perf events each probe will be built on (the engines
// attach them later) give the probe-name mapping:
//
//   perf cpu-clock, period N, one event per online CPU -> profile:::profile-N
//   perf cpu-clock, period N, one CPU                  -> profile:::tick-N
//
// N is a number with an optional unit (interval.hpp). Module and function
// are always empty. With no name, or a glob, we report illumos' default
// set below (profile_rates[] and profile_ticks[], in hertz) and the host
// filters it; any other valid name is created on demand, as
// profile_provide() does for a description it is asked about.
//
// Cookie: the interval in nanoseconds, bit 63 set for tick-N (see
// cookie_of() in interval.hpp). Only this plugin reads it: the host and the
// engines learn the interval from fires().
//
// fires: DT_FIRE_TIMER with the interval; profile-N per CPU (bpf, kmod),
// tick-N on one CPU, which the user engine can also run (a timer in the
// consumer's process: no kernel event).
//
// Arguments: as on illumos, none is typed (`dtrace -lv` prints None).
// When the probe fires, arg0 is the kernel PC that was interrupted (0 in
// user mode) and arg1 the user PC (0 in kernel mode).
//
// bpf engine (attach): a perf event (software cpu-clock) of the probe's
// period, context DT_BPF_CTX_PERF (arg0/arg1 as above):
//
//   profile-N  -> cpu -1: one event per online CPU
//   tick-N     -> cpu = the first online CPU (/sys/devices/system/cpu/online)
//
// The events count wall time on their CPU and exclude nothing (no
// exclude_idle, exclude_user or exclude_kernel), so a probe samples
// whatever runs there: a thread in user mode or in the kernel, or the
// idle task (pid 0, arg1 0) on a CPU with nothing to run, as illumos'
// cyclics do. A process thus gets as many samples as its CPU time (not
// its wall time) over the period (plugins/profile/tests:
// profile_args_host_test; the idle task in tests/vm/bpf-engine-guest.sh).
#include "interval.hpp"

#include <dtrace/plugin.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace dt::plugin::profile {
namespace {

constexpr const char *k_default_probes[] = {
	"profile-97",	"profile-199",	"profile-499", "profile-997", "profile-1999",
	"profile-4001", "profile-4999", "tick-1",      "tick-10",     "tick-100",
	"tick-500",	"tick-1000",	"tick-5000",
};

constexpr const char *k_provider = "profile";

// Report the probe `name` names. True if it is a valid profile-N/tick-N
// name (reported; `stop` then holds the callback's answer), else false.
bool report(const dt_plugin_host_t *host, const char *name, dt_probe_cb cb, void *arg, bool &stop)
{
	auto parsed = parse_probe_name(name);
	if (!parsed)
		return false;
	if (parsed->status != interval_status::ok) {
		if (host != nullptr && host->log != nullptr)
			host->log(host, DT_LOG_DEBUG, "profile: no probe %s: %s", name,
				  describe(parsed->status));
		return false;
	}
	dt_probe_info_t p = {sizeof(p), k_provider, "", "", name, cookie_of(parsed->spec)};
	stop = cb(arg, &p) != 0;
	return true;
}

// The state is the host (for its log); nothing else is kept.
int profile_init(const dt_plugin_host_t *host, void **state)
{
	*state = const_cast<dt_plugin_host_t *>(host);
	return 0;
}

int profile_probes(void *state, const dt_probe_query_t *query, dt_probe_cb cb, void *arg)
{
	return dt::sdk::guard([&] {
		const auto *host = static_cast<const dt_plugin_host_t *>(state);
		const char *name = query != nullptr && query->name != nullptr ? query->name : "";
		bool stop = false;
		// A DTrace glob (gmatch) is a pattern, and creates nothing.
		if (*name != '\0' && !dt::sdk::is_glob(name)) {
			report(host, name, cb, arg, stop);
			return 0;
		}
		for (const char *n : k_default_probes)
			if (report(host, n, cb, arg, stop) && stop)
				break;
		return 0;
	});
}

// The first CPU of the kernel's online list ("0-3,8"), or 0 if it
// cannot be read (CPU 0 is online on every system that boots).
int32_t first_online_cpu()
{
	int fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char buf[64] = {};
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || buf[0] < '0' || buf[0] > '9')
		return 0;
	return static_cast<int32_t>(std::strtol(buf, nullptr, 10));
}

int profile_bpf_attach(void *state, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	return dt::sdk::guard([&] {
		const auto *host = static_cast<const dt_plugin_host_t *>(state);
		auto parsed = parse_probe_name(probe->name);
		if (!parsed || parsed->status != interval_status::ok) {
			host->log(host, DT_LOG_WARN, "profile: %s names no probe", probe->name);
			return -ENOENT;
		}
		dt_bpf_attach_t a = dt::sdk::bpf_attach_desc(DT_BPF_ATTACH_PERF_EVENT);
		a.period_ns = parsed->spec.interval_ns;
		a.cpu = parsed->spec.kind == timer_kind::tick ? first_online_cpu() : -1;
		a.ctx = DT_BPF_CTX_PERF;
		dt::sdk::give_attach(out, a);
		return 0;
	});
}

int profile_fires(void *, const dt_probe_info_t *probe, dt_probe_fire_t *out)
{
	timer_spec t = spec_of(probe->cookie);
	if (t.interval_ns == 0)
		return -ENOENT;
	bool tick = t.kind == timer_kind::tick;
	dt_probe_fire_t f = dt::sdk::fire_desc(DT_FIRE_TIMER, DT_ENGINE_BPF | DT_ENGINE_KMOD |
								      (tick ? DT_ENGINE_USER : 0));
	f.period_ns = t.interval_ns;
	f.per_cpu = tick ? 0 : 1;
	dt::sdk::give_fire(out, f);
	return 0;
}

const dt_plugin_bpf_ops_t k_profile_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = profile_bpf_attach,
};

// kmod engine: the kernel half, plugins/profile/kernel (dtrace_profile.ko),
// which creates profile-N/tick-N probes on demand as this plugin does.
const dt_plugin_kmod_ops_t k_profile_kmod_ops = dt::sdk::kernel_module("dtrace_profile");

// None typed: see the head comment.
int profile_probe_args(void *, const dt_probe_info_t *, dt_arg_cb, void *)
{
	return 0;
}

// illumos profile.c profile_attr.
const dt_plugin_ops_t k_profile_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = k_provider,
	.description = "timed probes: profile-N on every CPU, tick-N on one",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_UNSTABLE, DT_STABILITY_UNSTABLE, DT_CLASS_COMMON},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_UNSTABLE, DT_STABILITY_UNSTABLE, DT_CLASS_COMMON}},
	.priv = DT_PRIV_USER,
	.flags = 0,
	.init = profile_init,
	.fini = nullptr,
	.probes = profile_probes,
	.probe_args = profile_probe_args,
	.kmod = &k_profile_kmod_ops,
	.bpf = &k_profile_bpf_ops,
	.fires = profile_fires,
};

} // namespace
} // namespace dt::plugin::profile

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): profile-N and tick-N, N with its unit.
DT_PLUGIN_NOTE(0, "profile-* tick-*");

DT_PLUGIN_DEFINE(dt::plugin::profile::k_profile_ops)
}
