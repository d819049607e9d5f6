// SPDX-License-Identifier: MIT
// Choosing the engine (see engine_choice.hpp).
#include "engine_choice.hpp"

namespace dt::detail {
namespace {

// Can the user engine run this probe? (Its enable() refuses the rest;
// the profile plugin's cookie has bit 63 set for tick-N.)
bool user_runs(const probe &p)
{
	if (p.desc.provider == "dtrace")
		return true;
	return p.desc.provider == "profile" && p.desc.name.starts_with("tick-") &&
	       (p.cookie >> 63) != 0;
}

// Does the probe's provider have a kernel half (plugin.h kmod table)?
bool has_kmod(const probe &p)
{
	if (p.prov == nullptr)
		return false;
	const dt_plugin_ops_t &ops = p.prov->ops();
	return DT_ABI_HAS(&ops, kmod) && ops.kmod != nullptr && DT_ABI_HAS(ops.kmod, module) &&
	       ops.kmod->module != nullptr;
}

} // namespace

std::optional<std::string> cannot_run(engine_kind k, const probe &p)
{
	switch (k) {
	case engine_kind::user:
		if (user_runs(p))
			return std::nullopt;
		return "the user engine runs only dtrace:::BEGIN, dtrace:::END, dtrace:::ERROR and "
		       "profile:::tick-N";
	case engine_kind::kmod:
		if (p.prov != nullptr && std::string_view(p.prov->name()) == "dtrace")
			return std::nullopt;
		if (has_kmod(p))
			return std::nullopt;
		return std::string("provider ") + (p.prov ? p.prov->name() : "?") +
		       " has no kernel module";
	case engine_kind::bpf:
		if (p.prov == nullptr || std::string_view(p.prov->name()) == "dtrace" ||
		    (DT_ABI_HAS(&p.prov->ops(), bpf) && p.prov->ops().bpf != nullptr))
			return std::nullopt;
		return std::string("the ") + p.prov->name() + " provider does not support it";
	default: return std::nullopt;
	}
}

engine_decision choose_engine(engine_kind asked, const enabling &en)
{
	engine_decision d;
	switch (asked) {
	case engine_kind::user:
		d.kind = engine_kind::user;
		d.reason = "chosen with -x engine=user";
		return d;
	case engine_kind::kmod:
		d.kind = engine_kind::kmod;
		d.reason = "chosen with -x engine=kmod";
		d.refusal = kmod_engine_refusal();
		return d;
	case engine_kind::bpf:
		d.kind = engine_kind::bpf;
		d.reason = "chosen with -x engine=bpf";
		d.refusal = bpf_engine_refusal();
		return d;
	default: break;
	}
	bool kernel = false, kmod_all = true;
	std::string first;
	for (const probe *pr : en.probes) {
		if (!cannot_run(engine_kind::user, *pr))
			continue;
		kmod_all = kmod_all && !cannot_run(engine_kind::kmod, *pr);
		if (!kernel) {
			kernel = true;
			first = pr->desc.str();
		}
	}
	if (!kernel) {
		d.kind = engine_kind::user;
		d.reason = "the program's probes need no kernel engine";
		return d;
	}
	if (kmod_all && !kmod_engine_refusal()) {
		d.kind = engine_kind::kmod;
		d.reason = "probe " + first + " needs a kernel engine; dtrace.ko is available";
		return d;
	}
	std::optional<error> no_bpf = bpf_engine_refusal();
	if (!no_bpf) {
		d.kind = engine_kind::bpf;
		d.reason = "probe " + first + " needs a kernel engine";
		return d;
	}
	// No kernel engine: the user engine refuses the probe by name, unless
	// what is missing is privilege, which DTrace reports as such.
	d.kind = engine_kind::user;
	d.reason = std::string("no kernel engine: ") + no_bpf->what();
	if (no_bpf->code() == errc::privilege)
		d.refusal = no_bpf;
	return d;
}

std::unique_ptr<engine> make_engine(engine_kind k, const engine_settings &s)
{
	if (k == engine_kind::kmod)
		return make_kmod_engine(s);
	return k == engine_kind::bpf ? make_bpf_engine(s) : make_user_engine(s);
}

} // namespace dt::detail
