// SPDX-License-Identifier: MIT
// Test support for tracepoint-table providers (dt::sdk::tracepoint_ops,
// plugins/io, sched, lockstat): attach every probe the plugin reports,
// and check each attached probe against the running kernel's BTF: the raw
// tracepoint exists with the arity the plugin gave, each argument's native
// type is the type of the raw argument it is mapped from, and the filter
// tests an argument the tracepoint passes. Tests that include this link
// libbpf (PkgConfig::LIBBPF).
#pragma once

#include "btf_tracepoints.hpp"
#include "plugin_handle.hpp"

#include <dtrace/plugin.h>

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace dt::test {

struct attached_probe {
	reported_probe probe;
	int rc;
	dt_bpf_attach_t a;
	std::string message; // what the plugin logged, if anything
};

// Every probe of `provider`, keyed "func:name", attached.
inline std::map<std::string, attached_probe> attach_every_probe(plugin_handle &h,
								const std::string &provider)
{
	std::map<std::string, attached_probe> out;
	for (const reported_probe &p : h.probes(provider.c_str(), "", "", "")) {
		size_t before = h.messages().size();
		attached_probe r{p, 0, {}, {}};
		r.rc = h.bpf_attach(p, r.a);
		if (h.messages().size() > before)
			r.message = h.messages().back();
		out[p.func + ":" + p.name] = r;
	}
	return out;
}

// The checks above for every probe that attached; the number of arguments
// checked. `kernel_type` maps a native type to the kernel's spelling.
template <typename F>
size_t check_against_btf(plugin_handle &h, const kernel_btf &btf,
			 const std::map<std::string, attached_probe> &all, F kernel_type)
{
	size_t checked = 0;
	for (const auto &[key, r] : all) {
		if (r.rc != 0)
			continue;
		EXPECT_EQ(r.a.kind, DT_BPF_ATTACH_RAW_TRACEPOINT) << key;
		EXPECT_EQ(r.a.ctx, DT_BPF_CTX_RAW) << key;
		auto proto = btf.raw_tracepoint(r.a.target);
		if (!proto.has_value()) {
			ADD_FAILURE() << key << ": no raw tracepoint " << r.a.target;
			continue;
		}
		EXPECT_EQ(proto->size(), r.a.nargs) << key;
		if (r.a.has_filter_arg != 0) {
			EXPECT_LT(static_cast<size_t>(r.a.filter_arg), proto->size()) << key;
		}
		for (const reported_arg &arg : h.args(r.probe)) {
			int32_t raw = r.a.argmap[arg.mapping];
			if (raw < 0 || static_cast<size_t>(raw) >= proto->size()) {
				ADD_FAILURE()
					<< key << " args[" << arg.ndx << "] has no raw argument";
				continue;
			}
			EXPECT_EQ((*proto)[raw].type, kernel_type(arg.native))
				<< key << " args[" << arg.ndx << "] from raw argument " << raw;
			checked++;
		}
	}
	return checked;
}

// A /bin/sh script in $TMPDIR with this body, for dtrace -c (which splits
// its command at blanks, with no shell quoting); removed at the end.
class script_file {
public:
	explicit script_file(const std::string &body)
	{
		path_ = (std::filesystem::temp_directory_path() /
			 ("dt-tp-script-" + std::to_string(getpid()) + ".sh"))
				.string();
		std::ofstream(path_) << "#!/bin/sh\n" << body;
		chmod(path_.c_str(), 0755);
	}
	~script_file() { std::filesystem::remove(path_); }
	script_file(const script_file &) = delete;
	script_file &operator=(const script_file &) = delete;
	const std::string &path() const { return path_; }

private:
	std::string path_;
};

} // namespace dt::test
