// SPDX-License-Identifier: MIT
//
// The engines' front half (dtrace/engine.hpp match_program): a program's
// descriptions matched to probes once, for every engine. This is what
// illumos' dtrace_program_exec() asks of dtrace_probe_enable() for each
// clause; here it is done in the consumer so that the user and bpf engines
// enable the same ECBs, and "matched N probes" is counted without an
// engine (the kmod engine's dtrace.ko matches again, against its own ids).
#include <dtrace/engine.hpp>
#include <dtrace/provider.hpp>

#include "util/assert.hpp"

namespace dt {

enabling match_program(const program &p, provider_registry &reg, std::vector<std::string> *refused)
{
	enabling en;
	en.matched.assign(p.clauses.size(), 0);
	for (uint32_t ci = 0; ci < p.clauses.size(); ci++) {
		for (const probe_desc &d : p.clauses[ci].descs) {
			std::vector<const probe *> probes;
			try {
				probes = reg.match(d);
			} catch (const desc_refused &e) {
				if (refused == nullptr)
					throw;
				refused->push_back(e.what());
			}
			if (probes.empty())
				en.unmatched.emplace_back(ci, d);
			for (const probe *pr : probes) {
				enabled_probe ep;
				ep.epid = static_cast<uint32_t>(en.eps.size() + 1);
				ep.probe_id = pr->id;
				ep.probe = pr->desc;
				ep.clause = ci;
				probe_fire f = reg.fire(*pr);
				ep.flow = f.flow;
				ep.flow_syscall = f.syscall;
				en.eps.push_back(std::move(ep));
				en.probes.push_back(pr);
				en.fires.push_back(std::move(f));
				en.matched[ci]++;
			}
		}
	}
	DT_ASSERT(en.eps.size() == en.probes.size() && en.eps.size() == en.fires.size());
	return en;
}

void require_matched(const enabling &en, bool zero_ok)
{
	if (zero_ok || en.unmatched.empty())
		return;
	const auto &[clause, d] = en.unmatched.front();
	throw engine_error("probe description " + d.str() + " does not match any probes",
			   errc::no_match, clause);
}

engine::~engine() = default;

void engine::add_probes(const enabling &)
{
	throw engine_error("the " + std::string(name()) +
				   " engine cannot enable probes while tracing",
			   errc::unsupported);
}

void engine::remove_probes(const std::vector<uint32_t> &)
{
}

provider_registry &engine::registry()
{
	const engine_settings &s = settings();
	if (s.registry != nullptr)
		return *s.registry;
	if (!own_registry_)
		own_registry_ = std::make_unique<provider_registry>(plugin_search_path(), s.procs,
								    [](const std::string &) {});
	return *own_registry_;
}

std::vector<enabled_probe> engine::enable(const program &p)
{
	enabling en = match_program(p, registry());
	require_matched(en, settings().zero_ok);
	return enable(p, en);
}

} // namespace dt
