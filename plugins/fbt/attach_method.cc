// SPDX-License-Identifier: MIT
// Choosing fbt's attach method on the bpf engine (see attach_method.hpp).
#include "attach_method.hpp"

#include <bpf/bpf.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace dt::plugin::fbt {

const char *method_name(attach_method m)
{
	switch (m) {
	case attach_method::fentry: return "fentry/fexit (BPF trampolines)";
	case attach_method::kprobe: return "kprobes";
	default: return "none";
	}
}

bool have_kprobes(const dt_plugin_host_t *host)
{
	if (access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0)
		return true;
	const char *tracefs = host->tracefs;
	return tracefs != nullptr && *tracefs != '\0' &&
	       access((std::string(tracefs) + "/kprobe_events").c_str(), F_OK) == 0;
}

bool fentry_works(btf_cache &btf, const std::string &func, std::string &why)
{
	tracing_shape shape;
	if (!btf.tracing_target(func, shape)) {
		why = "no BTF function " + func;
		return false;
	}
	// r0 = 0; exit
	struct bpf_insn insns[2];
	std::memset(insns, 0, sizeof(insns));
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[1].code = BPF_JMP | BPF_EXIT;
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	o.expected_attach_type = BPF_TRACE_FENTRY;
	o.attach_btf_id = shape.btf_id;
	int prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "dt_fbt_check", "GPL", insns, 2, &o);
	if (prog < 0) {
		why = "loading a fentry program at " + func + ": " + std::strerror(errno);
		return false;
	}
	int link = bpf_link_create(prog, 0, BPF_TRACE_FENTRY, nullptr);
	int err = errno;
	close(prog);
	if (link < 0) {
		why = "attaching a fentry program at " + func + ": " + std::strerror(err);
		return false;
	}
	close(link);
	return true;
}

attach_method choose_method(const dt_plugin_host_t *host, btf_cache &btf, const std::string &func)
{
	const char *want = std::getenv("DTRACE_FBT_ATTACH");
	std::string w = want != nullptr ? want : "";
	bool kprobes = have_kprobes(host);
	std::string why;
	attach_method m = attach_method::none;
	if (w == "kprobe") {
		m = kprobes ? attach_method::kprobe : attach_method::none;
		why = "DTRACE_FBT_ATTACH=kprobe";
	} else {
		tracing_shape shape;
		bool fentry = fentry_works(
			btf,
			btf.tracing_target("bpf_fentry_test1", shape) ? "bpf_fentry_test1" : func,
			why);
		if (fentry)
			m = attach_method::fentry;
		else if (w != "fentry" && kprobes)
			m = attach_method::kprobe;
	}
	host->log(host, DT_LOG_DEBUG, "fbt: bpf engine attaches with %s%s%s%s", method_name(m),
		  why.empty() ? "" : " (", why.c_str(), why.empty() ? "" : ")");
	return m;
}

} // namespace dt::plugin::fbt
