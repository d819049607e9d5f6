// SPDX-License-Identifier: MIT
// `dtrace -l` on the kmod engine (dtrace/engine.hpp kmod_list_probes()):
// the kernel's own probe table, read with DTRACEIOC_PROBEMATCH, so that
// the ids listed are the ids traced output shows, and probes a provider
// creates on demand (profile-N) exist once listed, as on illumos. Probes
// that fire from uprobes (pid$target, USDT) are placed in dtrace_pid.ko
// for the listing first (uprobes.hpp), as fasttrap creates them when a
// description names them.
#include "device.hpp"
#include "modules.hpp"
#include "uprobes.hpp"

#include <dtrace/engine.hpp>
#include <dtrace/provider.hpp>

#include <cerrno>
#include <cstring>

namespace dt {
namespace {

// Copy s into a fixed kernel field; false if it does not fit.
template <size_t N>
bool put(char (&field)[N], const std::string &s)
{
	if (s.size() >= N)
		return false;
	std::memcpy(field, s.c_str(), s.size() + 1);
	return true;
}

// The kernel halves of the providers `provider_glob` could name (all of
// them for ""), as the kmod engine's enable() loads them. A plugin with
// no kernel module is skipped: the kernel then has no such probes.
void load_modules(provider_registry &reg, const std::string &provider_glob)
{
	if (std::optional<error> e = kmod::ensure_core())
		throw engine_error(e->what(), e->code());
	if (provider_glob.empty())
		reg.load_all();
	else
		reg.load_matching(provider_glob);
	for (provider *prov : reg.providers()) {
		const dt_plugin_ops_t &ops = prov->ops();
		if (!provider_glob.empty() && !prov->could_match(provider_glob))
			continue;
		if (!DT_ABI_HAS(&ops, kmod) || ops.kmod == nullptr ||
		    !DT_ABI_HAS(ops.kmod, module) || ops.kmod->module == nullptr)
			continue;
		if (std::optional<error> e = kmod::load_module(ops.kmod->module))
			throw engine_error(e->what(), e->code());
	}
}

} // namespace

std::vector<kernel_probe> kmod_list_probes(provider_registry &reg, const probe_desc &d)
{
	load_modules(reg, d.provider);
	// Kernel halves that cannot find their probes (fbt) are given those
	// of the description first (plugin.h kmod provide).
	std::string why;
	const std::vector<const probe *> matched = reg.match(d);
	if (int rc = reg.kmod_provide(matched, why); rc < 0)
		throw engine_error(why.empty() ? std::string(std::strerror(-rc)) : why);
	kmod::uprobes placed; // closed after the listing: the probes go
	kmod::place_for_listing(placed, reg, matched);
	kmod::device dev;
	int err = dev.open();
	if (err == EACCES || err == EPERM)
		throw engine_error("DTrace requires additional privileges");
	if (err != 0)
		throw engine_error(std::string("cannot open ") + kmod::k_device_path + ": " +
				   std::strerror(err));

	std::vector<kernel_probe> out;
	dtrace_probedesc_t q{};
	if (!put(q.dtpd_provider, d.provider) || !put(q.dtpd_mod, d.mod) ||
	    !put(q.dtpd_func, d.func) || !put(q.dtpd_name, d.name))
		return out; // longer than any kernel probe's field: no match
	for (uint32_t next = 1;;) {
		dtrace_probedesc_t pd = q;
		pd.dtpd_id = next;
		err = dev.probematch(pd);
		if (err == ESRCH)
			break;
		if (err != 0)
			throw engine_error(std::string("DTRACEIOC_PROBEMATCH: ") +
					   std::strerror(err));
		out.push_back(
			{pd.dtpd_id, {pd.dtpd_provider, pd.dtpd_mod, pd.dtpd_func, pd.dtpd_name}});
		next = pd.dtpd_id + 1;
	}
	return out;
}

} // namespace dt
