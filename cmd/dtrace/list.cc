// SPDX-License-Identifier: MIT
// `dtrace -l` and `dtrace -lv`, in illumos dtrace(1M)'s layout:
//   oprintf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", ...)
// and, with -v, print_probe_info()'s attribute and argument blocks: stdout
// is DTrace's, byte for byte. Ours, on the side:
//
//   stderr       one note per listed provider whose probes the engine that
//                would trace them cannot enable on this kernel (fbt on the
//                bpf engine without kprobes), naming the engines that can
//                and why this one cannot; nothing for those that run, nor
//                for probes their provider runs on no engine
//   -x engines   after the listing, each listed provider's engines as a
//                table (yes, no, some of its probes, - for an engine its
//                provider does not run), with the reasons for each no
//
// The session lists (session.list(): each piece compiled, then the probes
// it matches; the kernel's with -x engine=kmod) and says which engines can
// run each probe (session.engines_of()); this prints.
#include "list.hpp"

#include "run.hpp"

#include <dtrace/attributes.hpp>
#include <dtrace/provider.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace dt::cli {

void print_attr_block(FILE *out, const char *title, dt_attribute_t a)
{
	std::fprintf(out, "\n\t%s\n", title);
	std::fprintf(out, "\t\tIdentifier Names: %s\n", stability_name(a.name).data());
	std::fprintf(out, "\t\tData Semantics:   %s\n", stability_name(a.data).data());
	std::fprintf(out, "\t\tDependency Class: %s\n", class_name(a.klass).data());
}

void print_probe_info(FILE *out, dt_attribute_t desc, dt_attribute_t args,
		      const std::vector<arg_desc> &types)
{
	print_attr_block(out, "Probe Description Attributes", desc);
	print_attr_block(out, "Argument Attributes", args);
	std::fprintf(out, "\n\tArgument Types\n");
	for (const auto &a : types)
		std::fprintf(out, "\t\targs[%d]: %s\n", a.ndx,
			     a.d_type().empty() ? "(unknown)" : a.d_type().c_str());
	if (types.empty())
		std::fprintf(out, "\t\tNone\n");
	std::fprintf(out, "\n");
}

namespace {

// One probe: its row and, with -v, the attributes of its provider and its
// arguments (a kernel probe no plugin describes has none).
void print_probe(FILE *out, const listed_probe &l, bool verbose, provider_registry &reg)
{
	const probe_desc &d = l.desc;
	std::fprintf(out, "%5u %10s %17s %33s %s\n", l.id, d.provider.c_str(), d.mod.c_str(),
		     d.func.c_str(), d.name.c_str());
	if (!verbose)
		return;
	static const dt_pattr_t unknown{};
	const dt_pattr_t *pa = l.prov != nullptr ? &l.prov->ops().attr : &unknown;
	// The description's attributes are the least stable of its fields'
	// (dt_probe_info() with every field of the description set).
	dt_attribute_t attr =
		attr_min(attr_min(pa->provider, pa->mod), attr_min(pa->func, pa->name));
	std::vector<arg_desc> args;
	if (l.p != nullptr)
		args = reg.args(*l.p);
	print_probe_info(out, attr, pa->args, args);
}

// ---- engines: the notes and -x engines --------------------------------

constexpr engine_kind k_kinds[] = {engine_kind::user, engine_kind::bpf, engine_kind::kmod};

size_t kind_index(engine_kind k)
{
	return k == engine_kind::user ? 0 : k == engine_kind::bpf ? 1 : 2;
}

// What the listed probes of one provider say, engine by engine: of all of
// them (the table), and of those the engine in use cannot run (the note).
struct engine_counts {
	size_t runs[3] = {};	  // probes each engine can run here
	size_t described[3] = {}; // probes the provider runs on each engine
	std::string why[3];	  // the first refusal of an engine it describes

	void add(const session::probe_engines &e)
	{
		for (size_t i = 0; i < 3; i++) {
			described[i] += e.described[i] ? 1 : 0;
			if (!e.refusal[i])
				runs[i]++;
			else if (e.described[i] && why[i].empty())
				why[i] = *e.refusal[i];
		}
	}
};

struct provider_engines {
	std::string name;
	size_t probes = 0;
	engine_counts all;
	size_t blocked = 0; // probes the engine that would be used cannot run
	engine_counts of_blocked;
	engine_kind used = engine_kind::automatic; // for the first blocked probe
	std::string used_why;
	engine_kind used_ok = engine_kind::automatic; // for the first other one
	bool unprivileged = false;
};

// Listed probes' engines, by provider in order of first appearance.
class engine_survey {
public:
	void add(session &s, const listed_probe &l)
	{
		const std::string name = l.desc.provider;
		auto it = std::find_if(provs_.begin(), provs_.end(),
				       [&](const provider_engines &p) { return p.name == name; });
		if (it == provs_.end()) {
			provs_.push_back({});
			it = provs_.end() - 1;
			it->name = name;
		}
		provider_engines &p = *it;
		session::probe_engines e = s.engines_of(l);
		p.probes++;
		p.unprivileged = p.unprivileged || e.unprivileged;
		p.all.add(e);
		const bool none = e.used == engine_kind::automatic;
		// A probe its provider runs on no engine (a name of the Guide
		// that Linux has no event for: io:::wait-start) is no engine's
		// matter: enabling it says why.
		if (!e.described[0] && !e.described[1] && !e.described[2])
			return;
		if (!none && !e.refusal[kind_index(e.used)]) {
			if (p.used_ok == engine_kind::automatic)
				p.used_ok = e.used;
			return;
		}
		p.of_blocked.add(e);
		if (p.blocked++ == 0) {
			p.used = e.used;
			p.used_why =
				none ? "no engine can be used" : *e.refusal[kind_index(e.used)];
		}
	}

	// One note per provider whose probes the engine in use cannot enable
	// here (unless bpf() itself is refused for privilege: this kernel may
	// well run them for root).
	void notes(FILE *out) const
	{
		std::fflush(out);
		for (const provider_engines &p : provs_) {
			if (p.blocked == 0 || p.unprivileged)
				continue;
			std::string msg = p.blocked == p.probes
						  ? p.name + " probes"
						  : std::to_string(p.blocked) + " of " +
							    std::to_string(p.probes) + " " +
							    p.name + " probes";
			msg += " cannot be enabled";
			if (p.used != engine_kind::automatic)
				msg += std::string(" on the ") + engine_name(p.used) + " engine";
			msg += " here: " + p.used_why;
			std::string others;
			const engine_counts &c = p.of_blocked;
			for (size_t i = 0; i < 3; i++) {
				if (k_kinds[i] == p.used || c.described[i] == 0)
					continue;
				others += std::string("; the ") + engine_name(k_kinds[i]) +
					  " engine ";
				if (c.runs[i] != 0)
					others += std::string("can run them (-x engine=") +
						  engine_name(k_kinds[i]) + ")";
				else
					others += "runs them, but not here: " + c.why[i];
			}
			msg += others.empty() ? "; no other engine runs them" : others;
			std::fprintf(stderr, "dtrace: %s\n", msg.c_str());
		}
	}

	// -x engines: the table, then the reasons.
	void table(FILE *out) const
	{
		std::fprintf(out, "\n%10s %5s %5s %5s %s\n", "PROVIDER", "USER", "BPF", "KMOD",
			     "ENGINE");
		for (const provider_engines &p : provs_) {
			const char *cell[3];
			for (size_t i = 0; i < 3; i++)
				cell[i] = p.all.runs[i] == p.probes ? "yes"
					  : p.all.runs[i] != 0	    ? "some"
					  : p.all.described[i] != 0 ? "no"
								    : "-";
			engine_kind used = p.used_ok != engine_kind::automatic ? p.used_ok : p.used;
			std::fprintf(out, "%10s %5s %5s %5s %s\n", p.name.c_str(), cell[0], cell[1],
				     cell[2],
				     used == engine_kind::automatic ? "none" : engine_name(used));
		}
		for (const provider_engines &p : provs_)
			for (size_t i = 0; i < 3; i++)
				if (!p.all.why[i].empty())
					std::fprintf(out, "%s: %s: %s\n", p.name.c_str(),
						     engine_name(k_kinds[i]), p.all.why[i].c_str());
	}

private:
	std::vector<provider_engines> provs_;
};

int failed(FILE *out, const std::string &msg)
{
	std::fflush(out);
	std::fprintf(stderr, "dtrace: %s\n", msg.c_str());
	return E_ERROR;
}

// illumos dtrace.c: every piece is compiled first (a bad one stops the
// listing before its heading), then the heading, then each piece's probes
// in turn (list_prog()).
int list_probes(const options &o, session &s, FILE *out)
{
	try {
		std::vector<session::listing> listings;
		for (const command &c : o.commands) {
			try {
				listings.push_back(s.list(input_of(c)));
			} catch (const compiler::compile_error &e) {
				return failed(out, (c.opt == 's' ? "failed to compile script "
								 : "invalid probe specifier ") +
							   c.arg + ": " + e.what());
			}
		}
		std::fprintf(out, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION",
			     "NAME");
		engine_survey survey;
		if (o.commands.empty()) {
			for (const listed_probe &l : s.list_all()) {
				print_probe(out, l, o.verbose, s.registry());
				survey.add(s, l);
			}
			survey.notes(out);
			if (o.engines)
				survey.table(out);
			return E_SUCCESS;
		}
		for (const session::listing &l : listings) {
			for (const listed_probe &p : l.probes) {
				print_probe(out, p, o.verbose, s.registry());
				survey.add(s, p);
			}
			// illumos list_stmt(): say so, and go on with the rest
			// (the exit status stays 0).
			for (const probe_desc &d : l.unmatched)
				(void)failed(out, "failed to match " + d.str() +
							  ": No probe matches description");
		}
		survey.notes(out);
		if (o.engines)
			survey.table(out);
	} catch (const error &e) {
		return failed(out, e.what());
	}
	return E_SUCCESS;
}

} // namespace

int list_main(const options &o, const char *argv0)
{
	// -c commands are created (held at their entry point, as for
	// tracing) so that their probes can be listed; $target is the first
	// of them, else the first -p. illumos kills a created process it
	// still holds when dtrace closes: so does the session.
	std::unique_ptr<session> s = open_session(o, argv0);
	FILE *out = open_output(o);
	int status = list_probes(o, *s, out);
	if (std::fflush(out) != 0 && status == E_SUCCESS)
		status = failed(stdout,
				std::string("failed to write output: ") + std::strerror(errno));
	if (out != stdout)
		std::fclose(out);
	return status;
}

} // namespace dt::cli
