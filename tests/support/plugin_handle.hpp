// SPDX-License-Identifier: MIT
// Test support: a provider plugin dlopened as the consumer would, for the
// plugins' own tests. A host struct (procs, tracefs, a log that keeps the
// messages), entry/init/fini, and the probes and their arguments reported
// as plain values (with the cookies and mappings `dtrace -lv` does not
// show).
#pragma once

#include <dtrace/plugin.h>

#include <dlfcn.h>

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dt::test {

// A probe as probes() reported it.
struct reported_probe {
	std::string provider, mod, func, name;
	uint64_t cookie;
};

// An argument as probe_args() described it; a NULL xlate or name is "".
struct reported_arg {
	int32_t ndx, mapping;
	std::string native, xlate, name;
};

class plugin_handle {
public:
	// Load the plugin at `path` and init() it with a host offering these
	// processes and this tracefs root (nullptr: none). ops() is nullptr if
	// any step failed; error() says which.
	explicit plugin_handle(const std::string &path, std::vector<int32_t> procs = {},
			       const char *tracefs = nullptr)
		: procs_(std::move(procs))
	{
		if (tracefs != nullptr)
			tracefs_ = tracefs;
		host_.sz = sizeof(host_);
		host_.abi_major = DT_PLUGIN_ABI_MAJOR;
		host_.abi_minor = DT_PLUGIN_ABI_MINOR;
		host_.log = &log;
		host_.tracefs = tracefs_ ? tracefs_->c_str() : nullptr;
		host_.procs = procs_.data();
		host_.nprocs = static_cast<uint32_t>(procs_.size());
		host_.host_private = this;
		dl_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
		if (dl_ == nullptr) {
			const char *e = dlerror();
			error_ = e ? e : "dlopen failed: " + path;
			return;
		}
		auto entry =
			reinterpret_cast<dt_plugin_entry_fn>(dlsym(dl_, DT_PLUGIN_ENTRY_SYMBOL));
		if (entry == nullptr) {
			error_ = path + ": no " DT_PLUGIN_ENTRY_SYMBOL;
			return;
		}
		const dt_plugin_ops_t *ops = entry(&host_);
		if (ops == nullptr) {
			error_ = path + ": the entry function returned NULL";
			return;
		}
		init_rc_ = ops->init ? ops->init(&host_, &state_) : 0;
		if (init_rc_ != 0) {
			error_ = path + ": init() returned " + std::to_string(init_rc_);
			return;
		}
		ops_ = ops;
	}
	plugin_handle(const std::string &path, std::vector<int32_t> procs,
		      const std::string &tracefs)
		: plugin_handle(path, std::move(procs), tracefs.c_str())
	{
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
	// Why ops() is nullptr ("" when it is not).
	[[nodiscard]] const std::string &error() const { return error_; }
	// What init() returned (0 without an init; -1 if it was never reached).
	[[nodiscard]] int init_rc() const { return init_rc_; }
	// What the plugin logged through host->log, in order, and at which
	// level (DT_LOG_*), index for index.
	[[nodiscard]] const std::vector<std::string> &messages() const { return messages_; }
	[[nodiscard]] const std::vector<int> &levels() const { return levels_; }

	// probes() for this query; `limit` > 0 stops the walk after that many.
	std::vector<reported_probe> probes(const char *prov, const char *mod, const char *func,
					   const char *name, int *rc = nullptr, size_t limit = 0)
	{
		struct ctx {
			std::vector<reported_probe> out;
			size_t limit;
		} c{{}, limit};
		dt_probe_query_t q{sizeof(q), prov, mod, func, name};
		int r = ops_->probes(
			state_, &q,
			[](void *a, const dt_probe_info_t *p) {
				auto *cx = static_cast<ctx *>(a);
				cx->out.push_back(
					{p->provider, p->mod, p->func, p->name, p->cookie});
				return cx->limit != 0 && cx->out.size() >= cx->limit ? 1 : 0;
			},
			&c);
		if (rc)
			*rc = r;
		return c.out;
	}

	// probe_args() for this probe (as reported, or made up by the test).
	std::vector<reported_arg> args(const dt_probe_info_t &probe, int *rc = nullptr)
	{
		std::vector<reported_arg> out;
		int r = ops_->probe_args(
			state_, &probe,
			[](void *a, const dt_arg_desc_t *d) {
				static_cast<std::vector<reported_arg> *>(a)->push_back(
					{d->ndx, d->mapping, d->native ? d->native : "",
					 d->xlate ? d->xlate : "", d->name ? d->name : ""});
				return 0;
			},
			&out);
		if (rc)
			*rc = r;
		return out;
	}
	std::vector<reported_arg> args(const reported_probe &p, int *rc = nullptr)
	{
		dt_probe_info_t info{sizeof(info),   p.provider.c_str(), p.mod.c_str(),
				     p.func.c_str(), p.name.c_str(),	 p.cookie};
		return args(info, rc);
	}

	// The plugin's state, as init() set it (for calling ops() directly).
	[[nodiscard]] void *state() const { return state_; }

	// The bpf engine's hook for this probe: `out` is cleared and its sz set
	// to `host_sz` (a smaller size plays a host built against an older
	// plugin.h), then bpf->attach() fills it. -ENOSYS without a bpf table.
	int bpf_attach(const dt_probe_info_t &probe, dt_bpf_attach_t &out,
		       size_t host_sz = sizeof(dt_bpf_attach_t))
	{
		std::memset(&out, 0, sizeof(out));
		out.sz = host_sz;
		if (ops_->bpf == nullptr || ops_->bpf->attach == nullptr)
			return -ENOSYS;
		return ops_->bpf->attach(state_, &probe, &out);
	}
	int bpf_attach(const reported_probe &p, dt_bpf_attach_t &out)
	{
		dt_probe_info_t info{sizeof(info),   p.provider.c_str(), p.mod.c_str(),
				     p.func.c_str(), p.name.c_str(),	 p.cookie};
		return bpf_attach(info, out);
	}
	// The plugin's fires() op (plugin.h ABI 1.4); -ENOSYS without one.
	int fires(const dt_probe_info_t &probe, dt_probe_fire_t &out,
		  size_t host_sz = sizeof(dt_probe_fire_t))
	{
		std::memset(&out, 0, sizeof(out));
		out.sz = host_sz;
		if (!DT_ABI_HAS(ops_, fires) || ops_->fires == nullptr)
			return -ENOSYS;
		return ops_->fires(state_, &probe, &out);
	}
	int fires(const reported_probe &p, dt_probe_fire_t &out)
	{
		dt_probe_info_t info{sizeof(info),   p.provider.c_str(), p.mod.c_str(),
				     p.func.c_str(), p.name.c_str(),	 p.cookie};
		return fires(info, out);
	}

private:
	__attribute__((format(printf, 3, 4))) static void log(const dt_plugin_host_t *host,
							      int level, const char *fmt, ...)
	{
		char buf[1024];
		va_list ap;
		va_start(ap, fmt);
		std::vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		auto *self = static_cast<plugin_handle *>(host->host_private);
		self->messages_.push_back(buf);
		self->levels_.push_back(level);
	}

	std::vector<int32_t> procs_;
	std::optional<std::string> tracefs_;
	dt_plugin_host_t host_{};
	void *dl_ = nullptr;
	const dt_plugin_ops_t *ops_ = nullptr;
	void *state_ = nullptr;
	int init_rc_ = -1;
	std::string error_;
	std::vector<std::string> messages_;
	std::vector<int> levels_;
};

} // namespace dt::test
