// SPDX-License-Identifier: MIT
// The pid plugin dlopened as the consumer would: a host struct with a log
// that keeps the messages, init/probes/fini, and the probes reported as
// plain values (with their cookies, which the CLI does not show).
#pragma once

#include <dtrace/plugin.h>

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

namespace dt::test::pid {

struct reported {
	std::string provider, mod, func, name;
	uint64_t cookie;
};

class plugin_handle {
public:
	explicit plugin_handle(std::vector<int32_t> procs = {}) : procs_(std::move(procs))
	{
		host_.sz = sizeof(host_);
		host_.abi_major = DT_PLUGIN_ABI_MAJOR;
		host_.abi_minor = DT_PLUGIN_ABI_MINOR;
		host_.log = &log;
		host_.procs = procs_.data();
		host_.nprocs = static_cast<uint32_t>(procs_.size());
		host_.host_private = this;
		dl_ = dlopen(DT_PID_PLUGIN, RTLD_NOW | RTLD_LOCAL);
		if (dl_ == nullptr)
			return;
		auto entry = reinterpret_cast<dt_plugin_entry_fn>(
			dlsym(dl_, DT_PLUGIN_ENTRY_SYMBOL));
		ops_ = entry ? entry(&host_) : nullptr;
		if (ops_ && ops_->init && ops_->init(&host_, &state_) != 0)
			ops_ = nullptr;
	}
	plugin_handle(const plugin_handle &) = delete;
	plugin_handle &operator=(const plugin_handle &) = delete;
	~plugin_handle()
	{
		if (ops_ && ops_->fini)
			ops_->fini(state_);
		if (dl_)
			dlclose(dl_);
	}

	[[nodiscard]] const dt_plugin_ops_t *ops() const { return ops_; }
	[[nodiscard]] const std::vector<std::string> &messages() const { return messages_; }

	// probes() for this query; `limit` > 0 stops the walk after that many.
	std::vector<reported> probes(const char *prov, const char *mod, const char *func,
				     const char *name, int *rc = nullptr, size_t limit = 0)
	{
		struct ctx {
			std::vector<reported> out;
			size_t limit;
		} c{{}, limit};
		dt_probe_query_t q{sizeof(q), prov, mod, func, name};
		int r = ops_->probes(state_, &q, [](void *a, const dt_probe_info_t *p) {
			auto *cx = static_cast<ctx *>(a);
			cx->out.push_back({p->provider, p->mod, p->func, p->name, p->cookie});
			return cx->limit != 0 && cx->out.size() >= cx->limit ? 1 : 0;
		}, &c);
		if (rc)
			*rc = r;
		return c.out;
	}

private:
	static void log(const dt_plugin_host_t *host, int, const char *fmt, ...)
	{
		char buf[1024];
		va_list ap;
		va_start(ap, fmt);
		std::vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		static_cast<plugin_handle *>(host->host_private)->messages_.push_back(buf);
	}

	std::vector<int32_t> procs_;
	dt_plugin_host_t host_{};
	void *dl_ = nullptr;
	const dt_plugin_ops_t *ops_ = nullptr;
	void *state_ = nullptr;
	std::vector<std::string> messages_;
};

} // namespace dt::test::pid
