// SPDX-License-Identifier: MIT
// The sdt provider: every kernel tracepoint (tracefs event) as a probe,
// with its fields as typed, named arguments (bpftrace's `tracepoint:`,
// Oracle DTrace's sdt over Linux tracepoints):
//
//   tracefs <group>:<event>  ->  sdt:<group>::<event>
//
// e.g. sched:sched_switch is sdt:sched::sched_switch, which
// `sdt:::sched_switch` matches too (event names are unique across groups
// on the kernels we know; a description names the group when they are
// not). The probes are the lines of <tracefs>/available_events, read once
// per session (one file, not a directory walk of thousands), sorted by
// group and event. A query with a literal group and event looks only at
// that event's directory.
//
// Arguments (probe_args): the event's `format` file, read when a probe's
// arguments are asked for (a compile that uses args[], -lv, the bpf
// hook) and kept; record_args.hpp says how each field becomes args[i]:
// the fields after the common_* ones, in order, the first ten (the
// engines' arg0..arg9), named as in the format, so that args[1],
// args->prev_pid and arg1 are the same value. Strings held in the record
// (char comm[16], __data_loc char[]) are D strings: args->prev_comm.
// Fields that are user pointers (the syscalls group's
// `const char * filename`) are read with copyinstr().
//
// bpf engine (attach): a tracepoint program on the event (perf
// tracepoint event, ID from the format), its context the event's record
// (DT_BPF_CTX_TP_RECORD), each argument read as its field's argfmt says
// (plugin.h ABI 1.6).
//
// kmod engine: none. A kernel half would need a probe function of each
// tracepoint's own TP_PROTO (a module cannot attach one function to any
// tracepoint, and the raw arguments are not the format's fields, which
// only the event's TP_fast_assign computes), so sdt runs on the bpf
// engine only; docs/providers/sdt.md says so.
#include "record_args.hpp"
#include "tracefs_format.hpp"

#include <dtrace/plugin.hpp>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dt::plugin::sdt {
namespace {

struct state {
	const dt_plugin_host_t *host = nullptr;
	std::string tracefs; // the mount's root, or "" without tracefs
	bool warned = false;
	bool listed = false;
	std::vector<std::pair<std::string, std::string>> events; // (group, event), sorted
	struct event_info {
		bool ok = false;
		uint64_t id = 0;
		record_layout layout;
	};
	std::map<std::string, event_info> formats; // by "group:event"
	bool btf_tried = false;
	btf *kernel_btf = nullptr;
	std::string target; // the last fires()'s or attach()'s "group:event"

	~state() { btf__free(kernel_btf); }
};

// Say once per session why there are no sdt probes.
void warn_unavailable(state &s, const std::string &why)
{
	if (s.warned)
		return;
	s.warned = true;
	s.host->log(s.host, DT_LOG_WARN,
		    "sdt provider: no probes: %s; sdt probes are the kernel's tracepoints, "
		    "listed by tracefs (/sys/kernel/tracing or /sys/kernel/debug/tracing), "
		    "which needs root",
		    why.c_str());
}

// A group or event name as it may appear in a path.
bool is_valid_name(std::string_view n)
{
	return !n.empty() && n != "." && n != ".." && n.find('/') == std::string_view::npos;
}

// Read a small file whole. Returns 0 or a negative errno.
int read_file(const std::string &path, std::string &out)
{
	out.clear();
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[8192];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int err = -errno;
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		out.append(buf, static_cast<size_t>(n));
	}
	close(fd);
	return 0;
}

// <tracefs>/available_events ("group:event" lines), once.
bool load_events(state &s)
{
	if (s.listed)
		return true;
	std::string path = s.tracefs + "/available_events";
	std::string text;
	if (int err = read_file(path, text); err != 0) {
		warn_unavailable(s, path + ": " + std::strerror(-err));
		return false;
	}
	std::string_view t = text;
	while (!t.empty()) {
		size_t nl = t.find('\n');
		std::string_view line = t.substr(0, nl);
		t.remove_prefix(nl == std::string_view::npos ? t.size() : nl + 1);
		size_t colon = line.find(':');
		if (colon == std::string_view::npos)
			continue;
		std::string_view group = line.substr(0, colon), event = line.substr(colon + 1);
		if (is_valid_name(group) && is_valid_name(event))
			s.events.emplace_back(group, event);
	}
	std::sort(s.events.begin(), s.events.end());
	s.events.erase(std::unique(s.events.begin(), s.events.end()), s.events.end());
	s.listed = true;
	return true;
}

bool report(const char *group, const char *event, dt_probe_cb cb, void *arg)
{
	dt_probe_info_t p = {sizeof(p), "sdt", group, "", event, 0};
	return cb(arg, &p) != 0;
}

int list_probes(state &s, const dt_probe_query_t *q, dt_probe_cb cb, void *arg)
{
	if (s.tracefs.empty()) {
		warn_unavailable(s, "no tracefs is mounted");
		return 0;
	}
	if (!dt::sdk::field_matches(q->func, ""))
		return 0; // sdt probes have no function
	const char *mod = q->mod ? q->mod : "";
	const char *name = q->name ? q->name : "";
	// A literal group and event: that event's directory alone.
	if (*mod != '\0' && *name != '\0' && !dt::sdk::is_glob(mod) && !dt::sdk::is_glob(name)) {
		if (is_valid_name(mod) && is_valid_name(name) &&
		    access((s.tracefs + "/events/" + mod + "/" + name + "/format").c_str(), R_OK) ==
			    0)
			report(mod, name, cb, arg);
		return 0;
	}
	if (!load_events(s))
		return 0;
	for (const auto &[group, event] : s.events)
		if (dt::sdk::field_matches(mod, group.c_str()) &&
		    dt::sdk::field_matches(name, event.c_str()) &&
		    report(group.c_str(), event.c_str(), cb, arg))
			break;
	return 0;
}

// Whether the D compiler will resolve a type: C's own, or one the kernel's
// BTF has (the compiler reads the same BTF).
bool type_known(state &s, std::string_view type)
{
	std::string base = base_type(type);
	if (is_c_base_type(base))
		return true;
	if (!s.btf_tried) {
		s.btf_tried = true;
		btf *b = btf__load_vmlinux_btf();
		s.kernel_btf = libbpf_get_error(b) ? nullptr : b;
	}
	if (s.kernel_btf == nullptr)
		return false;
	auto kind = BTF_KIND_TYPEDEF;
	std::string_view n = base;
	for (auto [word, k] :
	     {std::pair{"struct ", BTF_KIND_STRUCT}, std::pair{"union ", BTF_KIND_UNION},
	      std::pair{"enum ", BTF_KIND_ENUM}})
		if (n.starts_with(word)) {
			n.remove_prefix(std::strlen(word));
			kind = k;
		}
	return btf__find_by_name_kind(s.kernel_btf, std::string(n).c_str(), kind) >= 0;
}

// The event's format, parsed and laid out as arguments, once per session.
const state::event_info &event_of(state &s, const dt_probe_info_t *p)
{
	std::string key = std::string(p->mod) + ":" + p->name;
	auto [it, fresh] = s.formats.try_emplace(key);
	if (!fresh)
		return it->second;
	state::event_info &e = it->second;
	std::string text;
	event_format f;
	if (s.tracefs.empty() || !is_valid_name(p->mod) || !is_valid_name(p->name) ||
	    read_file(s.tracefs + "/events/" + p->mod + "/" + p->name + "/format", text) != 0 ||
	    !parse_event_format(text, f) || !f.has_id)
		return e;
	e.ok = true;
	e.id = f.id;
	e.layout = layout_of(f, [&](std::string_view t) { return type_known(s, t); });
	return e;
}

int describe_args(state &s, const dt_probe_info_t *p, dt_arg_cb cb, void *arg)
{
	const state::event_info &e = event_of(s, p);
	if (!e.ok)
		return -ENOENT;
	int32_t ndx = 0;
	for (const record_arg &a : e.layout.args) {
		dt_arg_desc_t d = {sizeof(d), ndx, ndx, a.type.c_str(), nullptr, a.name.c_str()};
		ndx++;
		if (cb(arg, &d))
			break;
	}
	return 0;
}

// The bpf engine's description of a probe (see the head comment).
int bpf_attach(state &s, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	const state::event_info &e = event_of(s, p);
	if (!e.ok) {
		s.host->log(s.host, DT_LOG_WARN,
			    "sdt:%s::%s: cannot read the tracepoint's format under %s/events",
			    p->mod, p->name, s.tracefs.c_str());
		return -ENOENT;
	}
	s.target = std::string(p->mod) + ":" + p->name;
	dt_bpf_attach_t a = dt::sdk::bpf_attach_desc(DT_BPF_ATTACH_TRACEPOINT, s.target.c_str());
	a.offset = e.id;
	a.ctx = DT_BPF_CTX_TP_RECORD;
	a.nargs = e.layout.size;
	a.has_argmap = 1;
	for (size_t i = 0; i < k_max_args; i++) {
		bool have = i < e.layout.args.size();
		a.argmap[i] = have ? e.layout.args[i].offset : -1;
		a.argfmt[i] = have ? e.layout.args[i].fmt : 0;
	}
	dt::sdk::give_attach(out, a);
	return 0;
}

int fires(state &s, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	if (!is_valid_name(p->mod) || !is_valid_name(p->name))
		return -ENOENT;
	s.target = std::string(p->mod) + ":" + p->name;
	dt::sdk::give_fire(out,
			   dt::sdk::fire_desc(DT_FIRE_TRACEPOINT, DT_ENGINE_BPF, s.target.c_str()));
	return 0;
}

/*
 * Operations
 */

int sdt_init(const dt_plugin_host_t *host, void **statep)
{
	return dt::sdk::guard([&] {
		auto *s = new state;
		s->host = host;
		if (host->tracefs != nullptr)
			s->tracefs = host->tracefs;
		*statep = s;
		return 0;
	});
}

void sdt_fini(void *st)
{
	delete static_cast<state *>(st);
}

int sdt_probes(void *st, const dt_probe_query_t *q, dt_probe_cb cb, void *arg)
{
	return dt::sdk::guard([&] { return list_probes(*static_cast<state *>(st), q, cb, arg); });
}

int sdt_probe_args(void *st, const dt_probe_info_t *p, dt_arg_cb cb, void *arg)
{
	return dt::sdk::guard([&] { return describe_args(*static_cast<state *>(st), p, cb, arg); });
}

int sdt_bpf_attach(void *st, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	return dt::sdk::guard([&] { return bpf_attach(*static_cast<state *>(st), p, out); });
}

int sdt_fires(void *st, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	return dt::sdk::guard([&] { return fires(*static_cast<state *>(st), p, out); });
}

const dt_plugin_bpf_ops_t k_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = sdt_bpf_attach,
};

// illumos sdt_attr: the names are the kernel's, unstable across releases.
const dt_plugin_ops_t k_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = "sdt",
	.description = "every kernel tracepoint (tracefs events), with its fields as arguments",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN}},
	.priv = DT_PRIV_KERNEL,
	.flags = 0,
	.init = sdt_init,
	.fini = sdt_fini,
	.probes = sdt_probes,
	.probe_args = sdt_probe_args,
	.kmod = nullptr,
	.bpf = &k_bpf_ops,
	.fires = sdt_fires,
};

} // namespace
} // namespace dt::plugin::sdt

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE). Tracepoint names are C
// identifiers: lower case, digits and '_', never '-'. The globs say "any
// name but upper case (dtrace:::BEGIN) or the profile provider's
// tick-N and profile-N", so that those descriptions open no sdt.
DT_PLUGIN_NOTE(0, "[a-oq-su-z0-9_]* "
		  "t t[!i]* ti ti[!c]* tic tic[!k]* tick tick[!-]* "
		  "p p[!r]* pr pr[!o]* pro pro[!f]* prof prof[!i]* profi profi[!l]* "
		  "profil profil[!e]* profile profile[!-]*");

DT_PLUGIN_DEFINE(dt::plugin::sdt::k_ops)
}
