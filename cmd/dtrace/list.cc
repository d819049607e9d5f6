// SPDX-License-Identifier: MIT
// `dtrace -l` and `dtrace -lv`, in illumos dtrace(1M)'s layout:
//   oprintf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", ...)
// and, with -v, print_probe_info()'s attribute and argument blocks, then
// ours: the engines that can run the probe ("Engines", user bpf kmod).
//
// With -x engine=kmod the probes are the kernel's (kmod_list_probes():
// dtrace.ko's ids, on-demand probes created by the listing), described
// with their plugins' attributes and argument types; otherwise the
// plugins' own listing, numbered by the registry.
#include "list.hpp"

#include <dtrace/attributes.hpp>
#include <dtrace/engine.hpp>

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace dt::cli {
namespace {

void print_attr_block(FILE *out, const char *title, dt_attribute_t a)
{
	std::fprintf(out, "\n\t%s\n", title);
	std::fprintf(out, "\t\tIdentifier Names: %s\n", stability_name(a.name).data());
	std::fprintf(out, "\t\tData Semantics:   %s\n", stability_name(a.data).data());
	std::fprintf(out, "\t\tDependency Class: %s\n", class_name(a.klass).data());
}

// One probe: its row and, with -v, the attributes of its provider (pa;
// NULL: unknown), its arguments and the engines that can run it
// (DT_ENGINE_*, as its provider describes it: not in illumos, whose one
// engine runs everything).
void print_row(FILE *out, uint32_t id, const probe_desc &d, bool verbose, const dt_pattr_t *pa,
	       const std::vector<arg_desc> &args, uint32_t engines = 0)
{
	std::fprintf(out, "%5u %10s %17s %33s %s\n", id, d.provider.c_str(), d.mod.c_str(),
		     d.func.c_str(), d.name.c_str());
	if (!verbose)
		return;
	static const dt_pattr_t unknown{};
	if (pa == nullptr)
		pa = &unknown;
	// The description's attributes are the least stable of its fields'
	// (dt_probe_info() with every field of the description set).
	dt_attribute_t attr = attr_min(attr_min(pa->provider, pa->mod),
				       attr_min(pa->func, pa->name));
	print_attr_block(out, "Probe Description Attributes", attr);
	print_attr_block(out, "Argument Attributes", pa->args);
	std::fprintf(out, "\n\tArgument Types\n");
	for (const auto &a : args)
		std::fprintf(out, "\t\targs[%d]: %s\n", a.ndx,
			     a.d_type().empty() ? "(unknown)" : a.d_type().c_str());
	if (args.empty())
		std::fprintf(out, "\t\tNone\n");
	std::fprintf(out, "\n\tEngines\n\t\t");
	const char *sep = "";
	for (uint32_t bit : {DT_ENGINE_USER, DT_ENGINE_BPF, DT_ENGINE_KMOD})
		if ((engines & bit) != 0) {
			std::fprintf(out, "%s%s", sep, engine_bit_name(bit));
			sep = " ";
		}
	std::fprintf(out, "%s\n\n", *sep == '\0' ? "None" : "");
}

// A kernel probe (kmod engine), described by the plugin probe of the same
// name when there is one; else by its provider's attributes alone.
void print_kernel_probe(FILE *out, const kernel_probe &k, bool verbose, provider_registry &reg)
{
	if (!verbose) {
		print_row(out, k.id, k.desc, false, nullptr, {});
		return;
	}
	for (const probe *p : reg.match(k.desc))
		if (p->desc == k.desc) {
			print_row(out, k.id, k.desc, true, &p->prov->ops().attr, reg.args(*p),
				  reg.fire(*p).engines);
			return;
		}
	// The kernel has it, so the kmod engine runs it.
	const provider *prov = reg.find_provider(k.desc.provider);
	print_row(out, k.id, k.desc, true, prov != nullptr ? &prov->ops().attr : nullptr, {},
		  DT_ENGINE_KMOD);
}

bool kmod_asked(const options &o)
{
	for (const auto &[k, v] : o.xopts)
		if (k == "engine" && v == "kmod")
			return true;
	return false;
}

void print_probe(FILE *out, const probe &p, bool verbose, provider_registry &reg)
{
	if (!verbose) {
		print_row(out, p.id, p.desc, false, nullptr, {});
		return;
	}
	print_row(out, p.id, p.desc, true, &p.prov->ops().attr, reg.args(p), reg.fire(p).engines);
}

// The probe description part of a -n/-P/-m/-f argument: DTrace allows a
// predicate and an action after it, and several comma-separated
// descriptions before them.
std::vector<std::string> spec_descriptions(const std::string &arg)
{
	size_t end = arg.find_first_of("/{");
	std::string head = arg.substr(0, end);
	std::vector<std::string> out;
	size_t start = 0;
	for (;;) {
		size_t comma = head.find(',', start);
		std::string one = head.substr(start, comma - start);
		// trim
		size_t b = one.find_first_not_of(" \t\n");
		size_t e = one.find_last_not_of(" \t\n");
		out.push_back(b == std::string::npos ? "" : one.substr(b, e - b + 1));
		if (comma == std::string::npos)
			break;
		start = comma + 1;
	}
	return out;
}

desc_kind kind_of(char opt)
{
	switch (opt) {
	case 'P': return desc_kind::provider;
	case 'm': return desc_kind::mod;
	case 'f': return desc_kind::func;
	default: return desc_kind::name;
	}
}

} // namespace

bool expand_macros(const std::string &in, const options &o, std::string &out,
		   std::string &why)
{
	out.clear();
	for (size_t i = 0; i < in.size();) {
		if (in[i] != '$') {
			out += in[i++];
			continue;
		}
		size_t j = i + 1;
		if (j < in.size() && in[j] == '$')
			j++; // $$1: the string form; same text in a description
		size_t k = j;
		while (k < in.size() && (std::isalnum(static_cast<unsigned char>(in[k])) || in[k] == '_'))
			k++;
		std::string name = in.substr(j, k - j);
		if (name.empty()) {
			out += in[i++];
			continue;
		}
		std::string val;
		if (std::isdigit(static_cast<unsigned char>(name[0]))) {
			size_t n = std::strtoul(name.c_str(), nullptr, 10);
			if (n == 0)
				val = "dtrace";
			else if (n <= o.macro_args.size())
				val = o.macro_args[n - 1];
			else {
				why = "macro argument $" + name + " is not defined";
				return false;
			}
		} else if (name == "target") {
			// $target is 0 until -p or -c names a process (dt_open.c).
			val = o.grab.empty() ? "0" : std::to_string(o.grab.front());
		} else if (name == "pid") {
			val = std::to_string(getpid());
		} else if (name == "ppid") {
			val = std::to_string(getppid());
		} else if (name == "uid") {
			val = std::to_string(getuid());
		} else if (name == "gid") {
			val = std::to_string(getgid());
		} else {
			out += in.substr(i, k - i); // not a macro: leave it
			i = k;
			continue;
		}
		out += val;
		i = k;
	}
	return true;
}

namespace {

// -l with -x engine=kmod: the same walk over the kernel's probes.
int list_kernel_probes(const options &o, provider_registry &reg, FILE *out)
{
	auto no_match = [&](const std::string &spec, const std::string &desc) {
		std::fflush(out);
		std::fprintf(stderr, "dtrace: invalid probe specifier %s: "
			     "probe description %s does not match any probes\n",
			     spec.c_str(), desc.c_str());
		return E_ERROR;
	};
	if (o.commands.empty()) {
		for (const kernel_probe &k : kmod_list_probes(reg, {}))
			print_kernel_probe(out, k, o.verbose, reg);
		return E_SUCCESS;
	}
	for (const auto &cmd : o.commands) {
		if (cmd.opt == 's') {
			std::fflush(out);
			std::fprintf(stderr, "dtrace: failed to compile script %s: "
				     "D scripts cannot be compiled by this build yet\n",
				     cmd.arg.c_str());
			return E_ERROR;
		}
		if (cmd.opt == 'i') {
			char *end = nullptr;
			unsigned long id = std::strtoul(cmd.arg.c_str(), &end, 10);
			bool found = false;
			if (end != cmd.arg.c_str() && *end == '\0')
				for (const kernel_probe &k : kmod_list_probes(reg, {}))
					if (k.id == id) {
						print_kernel_probe(out, k, o.verbose, reg);
						found = true;
					}
			if (!found && !o.zdefs)
				return no_match(cmd.arg, cmd.arg);
			continue;
		}
		for (const auto &raw : spec_descriptions(cmd.arg)) {
			std::string spec, why;
			probe_desc d;
			if (!expand_macros(raw, o, spec, why) ||
			    !parse_probe_desc(spec, kind_of(cmd.opt), d, why)) {
				std::fflush(out);
				std::fprintf(stderr, "dtrace: invalid probe specifier %s: %s\n",
					     cmd.arg.c_str(), why.c_str());
				return E_ERROR;
			}
			auto found = kmod_list_probes(reg, d);
			if (found.empty() && !o.zdefs)
				return no_match(cmd.arg, d.str());
			for (const kernel_probe &k : found)
				print_kernel_probe(out, k, o.verbose, reg);
		}
	}
	return E_SUCCESS;
}

} // namespace

int list_probes(const options &o, provider_registry &reg, FILE *out)
{
	std::fprintf(out, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE",
		     "FUNCTION", "NAME");
	if (kmod_asked(o)) {
		try {
			return list_kernel_probes(o, reg, out);
		} catch (const engine_error &e) {
			std::fflush(out);
			std::fprintf(stderr, "dtrace: %s\n", e.what());
			return E_ERROR;
		}
	}
	if (o.commands.empty()) {
		for (const probe *p : reg.all())
			print_probe(out, *p, o.verbose, reg);
		return E_SUCCESS;
	}
	for (const auto &cmd : o.commands) {
		if (cmd.opt == 's') {
			std::fflush(out);
			std::fprintf(stderr, "dtrace: failed to compile script %s: "
				     "D scripts cannot be compiled by this build yet\n",
				     cmd.arg.c_str());
			return E_ERROR;
		}
		if (cmd.opt == 'i') {
			char *end = nullptr;
			unsigned long id = std::strtoul(cmd.arg.c_str(), &end, 10);
			const probe *found = nullptr;
			if (end != cmd.arg.c_str() && *end == '\0')
				for (const probe *p : reg.all())
					if (p->id == id)
						found = p;
			if (!found && !o.zdefs) {
				std::fflush(out);
				std::fprintf(stderr, "dtrace: invalid probe specifier %s: "
					     "probe description %s does not match any probes\n",
					     cmd.arg.c_str(), cmd.arg.c_str());
				return E_ERROR;
			}
			if (found)
				print_probe(out, *found, o.verbose, reg);
			continue;
		}
		for (const auto &raw : spec_descriptions(cmd.arg)) {
			std::string spec, why;
			probe_desc d;
			if (!expand_macros(raw, o, spec, why) ||
			    !parse_probe_desc(spec, kind_of(cmd.opt), d, why)) {
				std::fflush(out);
				std::fprintf(stderr, "dtrace: invalid probe specifier %s: %s\n",
					     cmd.arg.c_str(), why.c_str());
				return E_ERROR;
			}
			auto probes = reg.match(d);
			if (probes.empty() && !o.zdefs) {
				std::fflush(out);
				std::fprintf(stderr, "dtrace: invalid probe specifier %s: "
					     "probe description %s does not match any probes\n",
					     cmd.arg.c_str(), d.str().c_str());
				return E_ERROR;
			}
			for (const probe *p : probes)
				print_probe(out, *p, o.verbose, reg);
		}
	}
	return E_SUCCESS;
}

} // namespace dt::cli
