// SPDX-License-Identifier: MIT
// The dtrace provider: BEGIN, END and ERROR. It belongs to the consumer
// (as it belongs to the core on illumos), so it is built in rather than a
// plugin, but it is described through the same ops table.
//
// bpf engine (attach): all three are DT_BPF_ATTACH_CONSUMER, fired by the
// consumer itself (BEGIN before tracing starts, END after it stops, ERROR
// where a fault is reported) rather than by a kernel event.
//
// fires: DT_FIRE_CONSUMER (BEGIN, END, ERROR), on every engine.
#include "plugin_internal.hpp"

#include <dtrace/plugin.hpp>

#include <cerrno>
#include <cstring>
#include <iterator>

namespace dt::detail {
namespace {

constexpr const char *k_probes[] = {"BEGIN", "END", "ERROR"};

int dtrace_probes(void *, const dt_probe_query_t *, dt_probe_cb cb, void *arg)
{
	for (uint64_t i = 0; i < std::size(k_probes); i++) {
		dt_probe_info_t p = {sizeof(p), "dtrace", "", "", k_probes[i], i};
		if (cb(arg, &p))
			break;
	}
	return 0;
}

// illumos types none of the dtrace provider's arguments (`dtrace -lv`
// prints "None"); ERROR's untyped arg1..arg5 are the EPID, action index,
// DIF offset, fault type and fault value.
int dtrace_args(void *, const dt_probe_info_t *, dt_arg_cb, void *)
{
	return 0;
}

int dtrace_bpf_attach(void *, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	for (const char *name : k_probes)
		if (std::strcmp(p->name, name) == 0) {
			dt::sdk::give_attach(out,
					     dt::sdk::bpf_attach_desc(DT_BPF_ATTACH_CONSUMER));
			return 0;
		}
	return -ENOENT;
}

constexpr int32_t k_consumer[] = {DT_CONSUMER_BEGIN, DT_CONSUMER_END, DT_CONSUMER_ERROR};
static_assert(std::size(k_consumer) == std::size(k_probes));

int dtrace_fires(void *, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	for (size_t i = 0; i < std::size(k_probes); i++)
		if (std::strcmp(p->name, k_probes[i]) == 0) {
			dt_probe_fire_t f = dt::sdk::fire_desc(
				DT_FIRE_CONSUMER, DT_ENGINE_USER | DT_ENGINE_BPF | DT_ENGINE_KMOD);
			f.consumer = k_consumer[i];
			dt::sdk::give_fire(out, f);
			return 0;
		}
	return -ENOENT;
}

const dt_plugin_bpf_ops_t k_dtrace_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = dtrace_bpf_attach,
};

const dt_plugin_ops_t k_dtrace_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = "dtrace",
	.description = "DTrace's own probes: BEGIN, END, ERROR",
	.attr = {{DT_STABILITY_STABLE, DT_STABILITY_STABLE, DT_CLASS_COMMON},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_STABLE, DT_STABILITY_STABLE, DT_CLASS_COMMON},
		 {DT_STABILITY_STABLE, DT_STABILITY_STABLE, DT_CLASS_COMMON}},
	.priv = DT_PRIV_NONE,
	.flags = 0,
	.init = nullptr,
	.fini = nullptr,
	.probes = dtrace_probes,
	.probe_args = dtrace_args,
	.kmod = nullptr,
	.bpf = &k_dtrace_bpf_ops,
	.fires = dtrace_fires,
};

dt_probe_info_t info_of(const probe &p)
{
	return {sizeof(dt_probe_info_t), "dtrace", "", "", p.desc.name.c_str(), p.cookie};
}

class dtrace_provider final : public provider {
public:
	const dt_plugin_ops_t &ops() const override { return k_dtrace_ops; }
	const std::string &origin() const override { return origin_; }
	int probes(const dt_probe_query_t &q,
		   const std::function<void(const dt_probe_info_t &)> &cb) override
	{
		auto tramp = [](void *a, const dt_probe_info_t *p) {
			(*static_cast<const std::function<void(const dt_probe_info_t &)> *>(a))(*p);
			return 0;
		};
		return dtrace_probes(nullptr, &q, tramp, const_cast<void *>(static_cast<const void *>(&cb)));
	}
	int args(const probe &, std::vector<arg_desc> &out) override
	{
		out.clear();
		return 0;
	}
	int bpf_attach(const probe &p, dt_bpf_attach_t &out) override
	{
		std::memset(&out, 0, sizeof(out));
		out.sz = sizeof(out);
		dt_probe_info_t info = info_of(p);
		return dtrace_bpf_attach(nullptr, &info, &out);
	}
	int fires(const probe &p, dt_probe_fire_t &out) override
	{
		std::memset(&out, 0, sizeof(out));
		out.sz = sizeof(out);
		dt_probe_info_t info = info_of(p);
		return dtrace_fires(nullptr, &info, &out);
	}

private:
	std::string origin_ = "built-in";
};

} // namespace

std::unique_ptr<provider> make_dtrace_provider()
{
	return std::make_unique<dtrace_provider>();
}

} // namespace dt::detail
