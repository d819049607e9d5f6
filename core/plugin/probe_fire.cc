// SPDX-License-Identifier: MIT
// How a probe fires (dtrace/provider.hpp probe_fire): a provider's
// dt_probe_fire_t checked and parsed, or, for a plugin without the fires()
// op (ABI < 1.4), what its ops table and the probe's name tell.
#include <dtrace/plugin.hpp>
#include <dtrace/provider.hpp>

#include <cstring>
#include <string_view>

namespace dt {
namespace {

// The flow a probe's name gives (dt::sdk::flow_of_name(), illumos
// dt_flowindent()).
probe_flow flow_of_name(std::string_view n)
{
	switch (sdk::flow_of_name(n)) {
	case DT_FLOW_ENTRY: return probe_flow::entry;
	case DT_FLOW_RETURN: return probe_flow::ret;
	default: return probe_flow::none;
	}
}

// The engines a plugin's tables allow, for a plugin that does not say.
uint32_t engines_of_ops(const dt_plugin_ops_t &ops)
{
	uint32_t e = 0;
	if (DT_ABI_HAS(&ops, bpf) && ops.bpf != nullptr && DT_ABI_HAS(ops.bpf, attach) &&
	    ops.bpf->attach != nullptr)
		e |= DT_ENGINE_BPF;
	if (DT_ABI_HAS(&ops, kmod) && ops.kmod != nullptr && DT_ABI_HAS(ops.kmod, module) &&
	    ops.kmod->module != nullptr)
		e |= DT_ENGINE_KMOD;
	return e;
}

probe_fire derived(const dt_plugin_ops_t &ops, const probe &p)
{
	probe_fire f;
	f.engines = engines_of_ops(ops);
	f.flow = flow_of_name(p.desc.name);
	return f;
}

probe_fire parsed(const dt_probe_fire_t &d)
{
	probe_fire f;
	switch (d.kind) {
	case DT_FIRE_CONSUMER: f.kind = fire_kind::consumer; break;
	case DT_FIRE_TIMER: f.kind = fire_kind::timer; break;
	case DT_FIRE_TRACEPOINT: f.kind = fire_kind::tracepoint; break;
	case DT_FIRE_RAW_TRACEPOINT: f.kind = fire_kind::raw_tracepoint; break;
	case DT_FIRE_KPROBE: f.kind = fire_kind::kprobe; break;
	case DT_FIRE_UPROBE: f.kind = fire_kind::uprobe; break;
	case DT_FIRE_SITE: f.kind = fire_kind::site; break;
	default: f.kind = fire_kind::none; break;
	}
	if (f.kind == fire_kind::consumer) {
		switch (d.consumer) {
		case DT_CONSUMER_BEGIN: f.consumer = consumer_probe::begin; break;
		case DT_CONSUMER_END: f.consumer = consumer_probe::end; break;
		case DT_CONSUMER_ERROR: f.consumer = consumer_probe::error; break;
		default: f.kind = fire_kind::none; break; // a consumer probe of no kind
		}
	}
	if (f.kind == fire_kind::timer) {
		f.period_ns = d.period_ns;
		f.per_cpu = d.per_cpu != 0;
		if (f.period_ns == 0)
			f.kind = fire_kind::none; // a clock that never ticks
	}
	if (d.flow == DT_FLOW_ENTRY)
		f.flow = probe_flow::entry;
	else if (d.flow == DT_FLOW_RETURN)
		f.flow = probe_flow::ret;
	f.syscall = f.flow != probe_flow::none && (d.flags & DT_FIRE_F_SYSCALL) != 0;
	if (d.errno_src == DT_ERRNO_RETURN_ARG0)
		f.errno_src = errno_source::return_arg0;
	f.engines = d.engines & (DT_ENGINE_USER | DT_ENGINE_BPF | DT_ENGINE_KMOD);
	if (d.target != nullptr)
		f.target = d.target;
	return f;
}

} // namespace

const char *engine_bit_name(uint32_t bit)
{
	switch (bit) {
	case DT_ENGINE_USER: return "user";
	case DT_ENGINE_BPF: return "bpf";
	case DT_ENGINE_KMOD: return "kmod";
	default: return nullptr;
	}
}

probe_fire provider::fire(const probe &p)
{
	dt_probe_fire_t d;
	std::memset(&d, 0, sizeof(d));
	d.sz = sizeof(d);
	if (fires(p, d) != 0)
		return derived(ops(), p);
	return parsed(d);
}

probe_fire provider_registry::fire(const probe &p)
{
	return p.prov != nullptr ? p.prov->fire(p) : probe_fire{};
}

} // namespace dt
