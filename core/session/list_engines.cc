// SPDX-License-Identifier: MIT
// session::engines_of() (dtrace/session.hpp): for dtrace -l, which engines
// can run a listed probe on the kernel at hand and which one would, asked
// without building or loading anything:
//
//   user   the provider says DT_ENGINE_USER
//   bpf    the provider says DT_ENGINE_BPF, bpf() works for this process,
//          and the plugin's bpf hook describes an attachment (it refuses
//          with -ENOTSUP and says why when this kernel lacks what the
//          probe needs: kprobes, a tracepoint)
//   kmod   the provider says DT_ENGINE_KMOD, and /dev/dtrace exists or
//          dtrace.ko could be loaded, and so could the provider's module
//
// The engine used is -x engine's, else the one choose_engine() would take
// for this probe alone.
#include "engine_choice.hpp"

#include <dtrace/engine.hpp>
#include <dtrace/plugin.h>
#include <dtrace/provider.hpp>
#include <dtrace/session.hpp>

#include <cerrno>
#include <cstring>

namespace dt {

session::provider_answer session::provider_says(const listed_probe &l)
{
	provider_answer r;
	const engine_kind kinds[] = {engine_kind::user, engine_kind::bpf, engine_kind::kmod};
	probe_fire f;
	if (l.p != nullptr)
		f = registry().fire(*l.p);
	else
		f.engines = DT_ENGINE_KMOD; // a kernel probe no plugin describes
	for (size_t i = 0; i < 3; i++) {
		r.refusal[i] = detail::cannot_run(kinds[i], f);
		r.described[i] = !r.refusal[i];
	}
	// The bpf hook is asked even for a probe its provider runs on no
	// engine: its refusal says what Linux lacks (io:::wait-start), as the
	// bpf engine's does.
	if (!bpf_refusal_)
		bpf_refusal_ = bpf_engine_refusal();
	if (*bpf_refusal_) {
		r.unprivileged = (*bpf_refusal_)->code() == errc::privilege;
		if (r.described[1])
			r.refusal[1] = (*bpf_refusal_)->what();
	} else if (l.p != nullptr && !r.described[0]) {
		dt_bpf_attach_t a{};
		a.sz = sizeof(a);
		std::string why;
		int rc = registry().bpf_attach(*l.p, a, why);
		if (rc < 0 && (r.described[1] || !why.empty()))
			r.refusal[1] = !why.empty() ? why
						    : std::string("the ") + l.p->prov->name() +
							      " provider cannot attach it: " +
							      std::strerror(-rc);
	}
	return r;
}

session::probe_engines session::engines_of(const listed_probe &l)
{
	probe_engines r;
	const engine_kind kinds[] = {engine_kind::user, engine_kind::bpf, engine_kind::kmod};
	// What the provider says of the probe (its engines, its bpf hook's
	// answer), asked once per provider, module and name: fbt's hook says
	// the same of each of its ~100k functions here, and asking each made
	// dtrace -l twice as slow. (The one answer stands for the rest: a
	// kernel with trampolines but no kprobes refuses the few vmlinux
	// functions fentry cannot take, which the first one's answer hides.)
	const provider_answer *ans = nullptr;
	provider_answer fresh;
	if (l.p != nullptr) {
		auto key = std::make_tuple(static_cast<const void *>(l.p->prov), l.desc.mod,
					   l.desc.name);
		auto it = provider_answer_.find(key);
		if (it == provider_answer_.end())
			it = provider_answer_.emplace(key, provider_says(l)).first;
		ans = &it->second;
	} else {
		fresh = provider_says(l);
		ans = &fresh;
	}
	for (size_t i = 0; i < 3; i++) {
		r.refusal[i] = ans->refusal[i];
		r.described[i] = ans->described[i];
	}
	r.unprivileged = ans->unprivileged;
	if (!r.refusal[2]) {
		const dt_plugin_ops_t *ops = l.prov != nullptr ? &l.prov->ops() : nullptr;
		std::string module = ops != nullptr && ops->kmod != nullptr && ops->kmod->module
					     ? ops->kmod->module
					     : "";
		auto it = kmod_refusal_.find(module);
		if (it == kmod_refusal_.end()) {
			std::optional<error> e =
				kmod_engine_could_run(module.empty() ? nullptr : module.c_str());
			it = kmod_refusal_
				     .emplace(module, e ? std::optional<std::string>(e->what())
							: std::nullopt)
				     .first;
		}
		r.refusal[2] = it->second;
	}
	switch (s_.engine) {
	case engine_kind::automatic:
		for (size_t i : {0, 2, 1})
			if (!r.refusal[i]) {
				r.used = kinds[i];
				break;
			}
		// auto takes bpf for a kernel probe whenever bpf() works, and
		// the engine then refuses what it cannot attach.
		if (r.used == engine_kind::automatic) {
			if (!bpf_refusal_)
				bpf_refusal_ = bpf_engine_refusal();
			if (!*bpf_refusal_)
				r.used = engine_kind::bpf;
		}
		break;
	default: r.used = s_.engine; break;
	}
	return r;
}

} // namespace dt
