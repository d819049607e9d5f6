// SPDX-License-Identifier: MIT
// `dtrace -l` and `dtrace -lv`, in illumos dtrace(1M)'s layout:
//   oprintf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", ...)
// and, with -v, print_probe_info()'s attribute and argument blocks, then
// ours: the engines that can run the probe ("Engines", user bpf kmod).
//
// The session lists (session.list(): each piece compiled, then the probes
// it matches; the kernel's with -x engine=kmod); this prints.
#include "list.hpp"

#include "run.hpp"

#include <dtrace/attributes.hpp>
#include <dtrace/provider.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace dt::cli {
namespace {

void print_attr_block(FILE *out, const char *title, dt_attribute_t a)
{
	std::fprintf(out, "\n\t%s\n", title);
	std::fprintf(out, "\t\tIdentifier Names: %s\n", stability_name(a.name).data());
	std::fprintf(out, "\t\tData Semantics:   %s\n", stability_name(a.data).data());
	std::fprintf(out, "\t\tDependency Class: %s\n", class_name(a.klass).data());
}

// One probe: its row and, with -v, the attributes of its provider, its
// arguments (a kernel probe no plugin describes has none) and the engines
// that can run it (DT_ENGINE_*, as its provider describes it: not in
// illumos, whose one engine runs everything; a kernel probe, kmod).
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
	print_attr_block(out, "Probe Description Attributes", attr);
	print_attr_block(out, "Argument Attributes", pa->args);
	std::fprintf(out, "\n\tArgument Types\n");
	std::vector<arg_desc> args;
	if (l.p != nullptr)
		args = reg.args(*l.p);
	for (const auto &a : args)
		std::fprintf(out, "\t\targs[%d]: %s\n", a.ndx,
			     a.d_type().empty() ? "(unknown)" : a.d_type().c_str());
	if (args.empty())
		std::fprintf(out, "\t\tNone\n");
	uint32_t engines = l.p != nullptr ? reg.fire(*l.p).engines : DT_ENGINE_KMOD;
	std::fprintf(out, "\n\tEngines\n\t\t");
	const char *sep = "";
	for (uint32_t bit : {DT_ENGINE_USER, DT_ENGINE_BPF, DT_ENGINE_KMOD})
		if ((engines & bit) != 0) {
			std::fprintf(out, "%s%s", sep, engine_bit_name(bit));
			sep = " ";
		}
	std::fprintf(out, "%s\n\n", *sep == '\0' ? "None" : "");
}

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
		if (o.commands.empty()) {
			for (const listed_probe &l : s.list_all())
				print_probe(out, l, o.verbose, s.registry());
			return E_SUCCESS;
		}
		for (const session::listing &l : listings) {
			for (const listed_probe &p : l.probes)
				print_probe(out, p, o.verbose, s.registry());
			// illumos list_stmt(): say so, and go on with the rest
			// (the exit status stays 0).
			for (const probe_desc &d : l.unmatched)
				(void)failed(out, "failed to match " + d.str() +
							  ": No probe matches description");
		}
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
