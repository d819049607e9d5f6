// SPDX-License-Identifier: MIT
// Choosing the engine (see engine_choice.hpp): from what each matched
// probe's provider says of it (plugin.h dt_probe_fire_t, carried by the
// front half), never from provider names.
#include "engine_choice.hpp"

namespace dt::detail {

std::optional<std::string> cannot_run(engine_kind k, const probe_fire &f)
{
	uint32_t bit = 0;
	switch (k) {
	case engine_kind::user: bit = DT_ENGINE_USER; break;
	case engine_kind::bpf: bit = DT_ENGINE_BPF; break;
	case engine_kind::kmod: bit = DT_ENGINE_KMOD; break;
	default: return std::nullopt;
	}
	if (f.runs_on(bit))
		return std::nullopt;
	return std::string("its provider does not run it on the ") + engine_name(k) + " engine";
}

engine_decision choose_engine(engine_kind asked, const enabling &en, const program &p)
{
	const bool reads_kernel = p.reads_kernel;
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
	std::string interrupted; // a timer probe's clause that reads its thread
	for (size_t i = 0; i < en.probes.size(); i++) {
		if (!cannot_run(engine_kind::user, en.fires[i])) {
			const uint32_t c = en.eps[i].clause;
			if (interrupted.empty() && en.fires[i].kind == fire_kind::timer &&
			    c < p.clauses.size() && p.clauses[c].reads_thread()) {
				interrupted = en.probes[i]->desc.str();
				kmod_all = kmod_all && !cannot_run(engine_kind::kmod, en.fires[i]);
			}
			continue;
		}
		kmod_all = kmod_all && !cannot_run(engine_kind::kmod, en.fires[i]);
		if (!kernel) {
			kernel = true;
			first = en.probes[i]->desc.str();
		}
	}
	if (!kernel && !reads_kernel && interrupted.empty()) {
		d.kind = engine_kind::user;
		d.reason = "the program's probes need no kernel engine";
		return d;
	}
	const std::string why =
		kernel	       ? "probe " + first + " needs a kernel engine"
		: reads_kernel ? "the program reads kernel memory"
			       : "probe " + interrupted + " reads the thread it interrupts";
	if (kmod_all && !kmod_engine_refusal()) {
		d.kind = engine_kind::kmod;
		d.reason = why + "; dtrace.ko is available";
		return d;
	}
	std::optional<error> no_bpf = bpf_engine_refusal();
	if (!no_bpf) {
		d.kind = engine_kind::bpf;
		d.reason = why;
		return d;
	}
	if (!kernel) {
		// Probes the user engine runs: it runs them, and the kernel
		// reads fault (BADADDR) as they would on an unmapped address;
		// a tick's thread is dtrace's own.
		d.kind = engine_kind::user;
		d.reason = why + ", but no kernel engine: " + std::string(no_bpf->what());
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
