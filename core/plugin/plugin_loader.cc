// SPDX-License-Identifier: MIT
// Loading a provider plugin: Poco::SharedLibrary, the entry symbol, and
// the ABI checks. Everything a plugin can do wrong ends here as a reason
// string; nothing a plugin does may take the consumer down with it, so
// every call into it is fenced by a catch-all (the plugin ABI forbids
// exceptions, but a C++ plugin can break that rule).
#include "plugin_internal.hpp"

#include <Poco/Exception.h>
#include <Poco/SharedLibrary.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <type_traits>

namespace dt::detail {
namespace {

std::string describe_exception(const std::exception_ptr &e)
{
	try {
		std::rethrow_exception(e);
	} catch (const Poco::Exception &x) {
		return x.displayText();
	} catch (const std::exception &x) {
		return x.what();
	} catch (...) {
		return "unknown exception";
	}
}

// The probe as the plugin reported it; valid while `p` lives.
dt_probe_info_t info_of(const probe &p)
{
	return {sizeof(dt_probe_info_t), p.desc.provider.c_str(), p.desc.mod.c_str(),
		p.desc.func.c_str(), p.desc.name.c_str(), p.cookie};
}

class plugin_provider final : public provider {
public:
	plugin_provider(std::string path, warning_fn warn)
		: path_(std::move(path)), warn_(std::move(warn))
	{
	}
	~plugin_provider() override
	{
		if (initialized_ && ops_.fini) {
			try {
				ops_.fini(state_);
			} catch (...) {
				warn_("provider plugin " + path_ +
				      " threw an exception in fini()");
			}
		}
		if (lib_.isLoaded())
			lib_.unload();
	}

	bool open(const std::string &expected, const dt_plugin_host_t *host,
		  std::string &why)
	{
		try {
			lib_.load(path_, Poco::SharedLibrary::SHLIB_LOCAL);
		} catch (...) {
			why = describe_exception(std::current_exception());
			return false;
		}
		if (!lib_.hasSymbol(DT_PLUGIN_ENTRY_SYMBOL)) {
			why = std::string("no entry point ") + DT_PLUGIN_ENTRY_SYMBOL;
			return false;
		}
		auto entry = reinterpret_cast<dt_plugin_entry_fn>(
			lib_.getSymbol(DT_PLUGIN_ENTRY_SYMBOL));
		const dt_plugin_ops_t *theirs = nullptr;
		try {
			theirs = entry(host);
		} catch (...) {
			why = "entry point threw an exception: " +
			      describe_exception(std::current_exception());
			return false;
		}
		if (theirs == nullptr) {
			why = "entry point returned no operations table";
			return false;
		}
		// Check the version before trusting any other field's layout.
		if (theirs->sz < offsetof(dt_plugin_ops_t, name)) {
			why = "operations table too small (" +
			      std::to_string(theirs->sz) + " bytes)";
			return false;
		}
		if (theirs->abi_major != DT_PLUGIN_ABI_MAJOR) {
			why = "built for plugin ABI version " +
			      std::to_string(theirs->abi_major) +
			      ", this dtrace supports version " +
			      std::to_string(DT_PLUGIN_ABI_MAJOR);
			return false;
		}
		constexpr size_t required = offsetof(dt_plugin_ops_t, probes) +
					    sizeof(dt_plugin_ops_t::probes);
		if (theirs->sz < required) {
			why = "operations table too small (" +
			      std::to_string(theirs->sz) + " bytes, need " +
			      std::to_string(required) + ")";
			return false;
		}
		// Copy what they have into a zeroed table of our size: fields
		// an older plugin lacks read as NULL, newer fields we do not
		// know are ignored.
		std::memset(&ops_, 0, sizeof(ops_));
		std::memcpy(&ops_, theirs, std::min(theirs->sz, sizeof(ops_)));
		ops_.sz = sizeof(ops_);
		if (ops_.name == nullptr || ops_.probes == nullptr) {
			why = "operations table lacks a name or a probes() function";
			return false;
		}
		if (expected != ops_.name) {
			why = std::string("provides '") + ops_.name +
			      "' but its file is named for '" + expected + "'";
			return false;
		}
		if (ops_.init) {
			int err = 0;
			try {
				err = ops_.init(host, &state_);
			} catch (...) {
				why = "init() threw an exception: " +
				      describe_exception(std::current_exception());
				return false;
			}
			if (err != 0) {
				why = std::string("init() failed: ") + std::strerror(-err);
				return false;
			}
		}
		initialized_ = true;
		return true;
	}

	const dt_plugin_ops_t &ops() const override { return ops_; }
	const std::string &origin() const override { return path_; }

	int probes(const dt_probe_query_t &q,
		   const std::function<void(const dt_probe_info_t &)> &cb) override
	{
		struct ctx {
			const std::function<void(const dt_probe_info_t &)> *cb;
			std::exception_ptr err;
		} c{&cb, nullptr};
		auto tramp = [](void *a, const dt_probe_info_t *p) -> int {
			auto *cx = static_cast<ctx *>(a);
			try {
				if (p == nullptr || p->sz < offsetof(dt_probe_info_t, cookie) ||
				    !p->provider || !p->mod || !p->func || !p->name)
					return 0; // malformed: ignore the entry
				(*cx->cb)(*p);
				return 0;
			} catch (...) {
				// Our own failure (e.g. bad_alloc): stop the walk and
				// rethrow once we are out of the plugin's frames.
				cx->err = std::current_exception();
				return 1;
			}
		};
		int rc = 0;
		try {
			rc = ops_.probes(state_, &q, tramp, &c);
		} catch (...) {
			warn_("provider plugin " + path_ + " threw in probes(): " +
			      describe_exception(std::current_exception()));
			return -EIO;
		}
		if (c.err)
			std::rethrow_exception(c.err);
		return rc;
	}

	int args(const probe &p, std::vector<arg_desc> &out) override
	{
		out.clear();
		if (!ops_.probe_args)
			return 0;
		dt_probe_info_t info = info_of(p);
		auto tramp = [](void *a, const dt_arg_desc_t *d) -> int {
			auto *v = static_cast<std::vector<arg_desc> *>(a);
			if (d == nullptr || d->sz < offsetof(dt_arg_desc_t, name))
				return 0;
			arg_desc ad;
			ad.ndx = d->ndx;
			ad.mapping = d->mapping;
			ad.native = d->native ? d->native : "";
			ad.xlate = d->xlate ? d->xlate : "";
			if (DT_ABI_HAS(d, name) && d->name)
				ad.name = d->name;
			v->push_back(std::move(ad));
			return 0;
		};
		try {
			return ops_.probe_args(state_, &info, tramp, &out);
		} catch (...) {
			warn_("provider plugin " + path_ + " threw in probe_args(): " +
			      describe_exception(std::current_exception()));
			out.clear();
			return -EIO;
		}
	}

	int bpf_attach(const probe &p, dt_bpf_attach_t &out) override
	{
		std::memset(&out, 0, sizeof(out));
		out.sz = sizeof(out);
		if (ops_.bpf == nullptr || ops_.bpf->sz < offsetof(dt_plugin_bpf_ops_t, attach) +
								  sizeof(ops_.bpf->attach) ||
		    ops_.bpf->attach == nullptr)
			return -ENOSYS;
		dt_probe_info_t info = info_of(p);
		try {
			return ops_.bpf->attach(state_, &info, &out);
		} catch (...) {
			warn_("provider plugin " + path_ + " threw in bpf attach(): " +
			      describe_exception(std::current_exception()));
			return -EIO;
		}
	}

	int kmod_provide(const std::vector<const probe *> &probes) override
	{
		const dt_plugin_kmod_ops_t *k = ops_.kmod;
		if (k == nullptr || !DT_ABI_HAS(k, provide) || k->provide == nullptr)
			return -ENOSYS;
		std::vector<dt_probe_info_t> infos;
		infos.reserve(probes.size());
		for (const probe *p : probes)
			infos.push_back(info_of(*p));
		try {
			return k->provide(state_, infos.data(), infos.size());
		} catch (...) {
			warn_("provider plugin " + path_ + " threw in kmod provide(): " +
			      describe_exception(std::current_exception()));
			return -EIO;
		}
	}

	int fires(const probe &p, dt_probe_fire_t &out) override
	{
		std::memset(&out, 0, sizeof(out));
		out.sz = sizeof(out);
		if (ops_.fires == nullptr)
			return -ENOSYS;
		dt_probe_info_t info = info_of(p);
		try {
			int rc = ops_.fires(state_, &info, &out);
			out.sz = sizeof(out); // whatever the plugin wrote there
			return rc;
		} catch (...) {
			warn_("provider plugin " + path_ + " threw in fires(): " +
			      describe_exception(std::current_exception()));
			return -EIO;
		}
	}

private:
	std::string path_;
	warning_fn warn_;
	Poco::SharedLibrary lib_;
	dt_plugin_ops_t ops_{};
	void *state_ = nullptr;
	bool initialized_ = false;
};

} // namespace

bool plugin_file_name(const std::string &file, std::string &name)
{
	constexpr std::string_view prefix = "dt_", suffix = ".so";
	if (file.size() <= prefix.size() + suffix.size() ||
	    !file.starts_with(prefix) || !file.ends_with(suffix))
		return false;
	name = file.substr(prefix.size(),
			   file.size() - prefix.size() - suffix.size());
	return true;
}

std::unique_ptr<provider> load_plugin(const std::string &path,
				      const std::string &expected_name,
				      const dt_plugin_host_t *host,
				      warning_fn warn, std::string &why)
{
	auto p = std::make_unique<plugin_provider>(path, std::move(warn));
	if (!p->open(expected_name, host, why))
		return nullptr;
	return p;
}

} // namespace dt::detail
