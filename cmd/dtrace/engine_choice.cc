// SPDX-License-Identifier: MIT
// Choosing the engine (see engine_choice.hpp).
#include "engine_choice.hpp"

namespace dt::cli {

std::optional<engine_kind> parse_engine(const std::string &v, std::string &why)
{
	if (v == "user")
		return engine_kind::user;
	if (v == "bpf")
		return engine_kind::bpf;
	if (v == "kmod")
		return engine_kind::kmod;
	if (v == "auto" || v.empty())
		return engine_kind::automatic;
	why = "invalid value for option engine: " + v + " (user, bpf, kmod or auto)";
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

engine_decision choose_engine(engine_kind asked, const program &p, provider_registry &reg)
{
	engine_decision d;
	std::string why;
	if (asked == engine_kind::user) {
		d.kind = engine_kind::user;
		d.reason = "chosen with -x engine=user";
		return d;
	}
	if (asked == engine_kind::kmod) {
		d.kind = engine_kind::kmod;
		d.reason = "chosen with -x engine=kmod";
		if (!kmod_engine_available(&why))
			d.failure = why;
		return d;
	}
	if (asked == engine_kind::bpf) {
		d.kind = engine_kind::bpf;
		d.reason = "chosen with -x engine=bpf";
		if (!bpf_engine_available(&why))
			d.failure = why;
		return d;
	}
	bool kernel = false, kmod_all = true;
	std::string first;
	for (const clause &c : p.clauses)
		for (const probe_desc &desc : c.descs)
			for (const probe *pr : reg.match(desc)) {
				// The provider says which engines can run it.
				probe_fire f = reg.fire(*pr);
				if (f.runs_on(DT_ENGINE_USER))
					continue;
				kmod_all = kmod_all && f.runs_on(DT_ENGINE_KMOD);
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
	std::string kwhy;
	if (kmod_all && kmod_engine_available(&kwhy)) {
		d.kind = engine_kind::kmod;
		d.reason = "probe " + first + " needs a kernel engine; dtrace.ko is available";
		return d;
	}
	if (bpf_engine_available(&why)) {
		d.kind = engine_kind::bpf;
		d.reason = "probe " + first + " needs a kernel engine";
		return d;
	}
	// No kernel engine: the user engine refuses the probe by name, unless
	// what is missing is privilege, which DTrace reports as such.
	d.kind = engine_kind::user;
	d.reason = "no kernel engine: " + why;
	if (why.find("privileges") != std::string::npos)
		d.failure = why;
	return d;
}

std::unique_ptr<engine> make_engine(engine_kind k, const engine_settings &s)
{
	if (k == engine_kind::kmod)
		return make_kmod_engine(s);
	return k == engine_kind::bpf ? make_bpf_engine(s) : make_user_engine(s);
}

} // namespace dt::cli
