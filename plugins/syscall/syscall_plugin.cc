// SPDX-License-Identifier: MIT
// The syscall provider (illumos systrace, FreeBSD systrace):
//
//   tracefs syscalls:sys_enter_X  ->  syscall:vmlinux:X:entry
//   tracefs syscalls:sys_exit_X   ->  syscall:vmlinux:X:return
//
// A probe exists for every event directory under
// <tracefs>/events/syscalls. Its cookie is the tracefs event ID, read from
// the event's small `id` file (the same number as the `ID:` line of its
// `format` file, without making the kernel print the whole format). The
// `format` file itself is read only by probe_args():
//
//   entry:  one argument per field after __syscall_nr, typed as the
//           kernel wrote it ("const char *", "umode_t");
//   return: args[0] and args[1] both the return value, typed as the
//           sys_exit event's `ret` field (FreeBSD systrace's convention).
//
// Laziness: a plain function name in the query touches only that system
// call's two `id` files; a glob or "" lists the directory once.
//
// bpf engine (attach): every probe is one of two raw tracepoints, filtered
// by the system call's number (syscall_numbers.hpp), so that any number
// of syscall probes costs two attachments, detached at once:
//
//   syscall::X:entry   -> raw_tp sys_enter, ctx SYS_ENTER, filter nr(X)
//   syscall::X:return  -> raw_tp sys_exit,  ctx SYS_EXIT,  filter nr(X)
//
// (TP_PROTO(struct pt_regs *regs, long id) and (regs, long ret): two
// raw arguments.) A system call whose number is unknown is refused with
// -ENOTSUP and a message naming it.
//
// Each probe's own event (ABI 1.5), for when only a few system calls are
// enabled: the tracepoint syscalls:sys_enter_X / sys_exit_X (ID: the
// probe's cookie), which costs the other system calls a bit test in the
// kernel instead of a program run. Its context is the event's record,
// laid out by the kernel's struct syscall_trace_enter/exit:
//
//   entry:  argument k (the format's fields after __syscall_nr) at 16 + 8k
//   return: ret at 16 (arg0 and arg1)
//
// The layout is read once per session from one event's `format` file
// (the first probe asked for) and checked; when it differs, no own event
// is offered. Reading every probe's format would cost syscall:::entry a
// file per system call. Arguments past a call's own count read the rest
// of the kernel's per-CPU record buffer (as the raw path reads the
// registers): D leaves them undefined.
//
// fires: the tracefs tracepoint (target syscalls:sys_enter_X or
// sys_exit_X), flow entry or return across the system call boundary
// (DT_FIRE_F_SYSCALL: -F prints => and <=); return probes take errno from
// arg0 (the return value, -4095..-1 an error). Engines: kmod, and bpf
// when the system call's number is known.
#include "syscall_numbers.hpp"
#include "tracefs_format.hpp"

#include <dtrace/plugin.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace dt::plugin::syscall {
namespace {

constexpr std::string_view k_enter = "sys_enter_";
constexpr std::string_view k_exit = "sys_exit_";

struct state {
	const dt_plugin_host_t *host = nullptr;
	std::string dir; // <tracefs>/events/syscalls, or "" without tracefs
	bool warned = false;
	std::string target; // the last fires()'s target
	std::string own;    // the last bpf_attach()'s own event
	int layout = -1;    // the records' layout checked: 1 as expected, 0 not, -1 unread
};

// Say once per session why there are no syscall probes.
void warn_unavailable(state &s, const char *why)
{
	if (s.warned)
		return;
	s.warned = true;
	s.host->log(s.host, DT_LOG_WARN,
		    "syscall provider: no probes: %s; syscall probes need tracefs "
		    "(events/syscalls, normally /sys/kernel/tracing) and root",
		    why);
}

// A system call name as it may appear in a path (no '/', not "." or "..").
bool is_valid_name(std::string_view s)
{
	return !s.empty() && s != "." && s != ".." && s.find('/') == std::string_view::npos;
}

// Read a small file whole. Returns 0 or a negative errno.
int read_file(const std::string &path, std::string &out)
{
	out.clear();
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[4096];
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

// The event ID of <dir>/<event>; false if it cannot be read.
bool event_id(const state &s, const std::string &event, uint64_t &id)
{
	std::string text;
	if (read_file(s.dir + "/" + event + "/id", text) != 0)
		return false;
	while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
		text.pop_back();
	auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
	return ec == std::errc() && p == text.data() + text.size();
}

struct wanted {
	bool entry = false;
	bool ret = false;
};

// Report the probes of one system call; true if the callback said stop.
// Query fields are matched with dt::sdk::field_matches(): the host
// re-filters everything with its own matcher, so that is only a hint.
bool report(const state &s, const std::string &name, const wanted &w, const dt_probe_query_t *q,
	    dt_probe_cb cb, void *arg)
{
	const char *qname = q->name;
	uint64_t id = 0;
	if (w.entry && dt::sdk::field_matches(qname, "entry") &&
	    event_id(s, std::string(k_enter) + name, id)) {
		dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", name.c_str(), "entry", id};
		if (cb(arg, &p))
			return true;
	}
	if (w.ret && dt::sdk::field_matches(qname, "return") &&
	    event_id(s, std::string(k_exit) + name, id)) {
		dt_probe_info_t p = {sizeof(p), "syscall", "vmlinux", name.c_str(), "return", id};
		if (cb(arg, &p))
			return true;
	}
	return false;
}

int list_probes(state &s, const dt_probe_query_t *q, dt_probe_cb cb, void *arg)
{
	if (s.dir.empty()) {
		warn_unavailable(s, "no tracefs is mounted");
		return 0;
	}
	if (!dt::sdk::field_matches(q->mod, "vmlinux"))
		return 0;
	const char *func = q->func ? q->func : "";

	// A plain name: look at that system call's files only.
	if (*func != '\0' && !dt::sdk::is_glob(func)) {
		if (!is_valid_name(func))
			return 0;
		if (access(s.dir.c_str(), R_OK | X_OK) != 0) {
			std::string why = s.dir + ": " + std::strerror(errno);
			warn_unavailable(s, why.c_str());
			return 0;
		}
		report(s, func, {true, true}, q, cb, arg);
		return 0;
	}

	std::unique_ptr<DIR, int (*)(DIR *)> d(opendir(s.dir.c_str()), closedir);
	if (!d) {
		std::string why = s.dir + ": " + std::strerror(errno);
		warn_unavailable(s, why.c_str());
		return 0;
	}
	// Sorted by name, entry before return, as illumos lists systrace.
	std::map<std::string, wanted> calls;
	while (struct dirent *e = readdir(d.get())) {
		std::string_view n = e->d_name;
		bool enter = n.starts_with(k_enter);
		if (!enter && !n.starts_with(k_exit))
			continue;
		std::string call(n.substr(enter ? k_enter.size() : k_exit.size()));
		if (call.empty() || !dt::sdk::field_matches(func, call.c_str()))
			continue;
		wanted &w = calls[call];
		(enter ? w.entry : w.ret) = true;
	}
	d.reset();
	for (const auto &[name, w] : calls)
		if (report(s, name, w, q, cb, arg))
			break;
	return 0;
}

int emit_arg(dt_arg_cb cb, void *arg, int ndx, const std::string &type, const char *name)
{
	dt_arg_desc_t a = {sizeof(a), ndx, ndx, type.c_str(), nullptr, name};
	return cb(arg, &a);
}

int describe_args(state &s, const dt_probe_info_t *p, dt_arg_cb cb, void *arg)
{
	if (s.dir.empty() || !is_valid_name(p->func))
		return 0;
	bool entry = std::strcmp(p->name, "entry") == 0;
	if (!entry && std::strcmp(p->name, "return") != 0)
		return 0;
	std::string event = std::string(entry ? k_enter : k_exit) + p->func;
	std::string text;
	if (int err = read_file(s.dir + "/" + event + "/format", text); err != 0)
		return err;
	event_format f;
	if (!parse_event_format(text, f))
		return -EINVAL;
	std::vector<format_field> fields = syscall_args(f);
	if (entry) {
		int ndx = 0;
		for (const auto &field : fields)
			if (emit_arg(cb, arg, ndx++, field.type, field.name.c_str()))
				break;
		return 0;
	}
	for (const auto &field : fields) {
		if (field.name != "ret")
			continue;
		if (emit_arg(cb, arg, 0, field.type, "ret") == 0)
			emit_arg(cb, arg, 1, field.type, "ret");
		break;
	}
	return 0;
}

// Whether the records of the syscalls events are laid out as the head
// comment says, read from the format of `event` (sys_enter_X or
// sys_exit_X) once per session.
bool record_layout_ok(state &s, const std::string &event, bool entry)
{
	if (s.layout >= 0)
		return s.layout == 1;
	std::string text;
	event_format f;
	if (s.dir.empty() || read_file(s.dir + "/" + event + "/format", text) != 0 ||
	    !parse_event_format(text, f))
		return false; // not known: asked again for the next probe
	std::vector<format_field> args = syscall_args(f);
	bool ok = entry || !args.empty();
	for (size_t k = 0; k < args.size() && ok; k++)
		ok = args[k].size == 8 && args[k].offset == 16 + 8 * k &&
		     (entry || args[k].name == "ret");
	s.layout = ok ? 1 : 0;
	return ok;
}

// The bpf engine's description of a probe (see the head comment).
int bpf_attach(state &s, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	bool entry = std::strcmp(p->name, "entry") == 0;
	if ((!entry && std::strcmp(p->name, "return") != 0) || !is_valid_name(p->func))
		return -ENOENT;
	std::optional<int64_t> nr = syscall_number(p->func);
	if (!nr) {
		s.host->log(s.host, DT_LOG_WARN,
			    "syscall::%s:%s: the number of system call %s is not known to "
			    "this build of the syscall provider (it reads them from "
			    "<asm/unistd.h>), so the bpf engine cannot filter on it",
			    p->func, p->name, p->func);
		return -ENOTSUP;
	}
	dt_bpf_attach_t a = dt::sdk::bpf_attach_desc(DT_BPF_ATTACH_RAW_TRACEPOINT,
						     entry ? "sys_enter" : "sys_exit");
	a.filter = *nr;
	a.has_filter = 1;
	a.ctx = entry ? DT_BPF_CTX_SYS_ENTER : DT_BPF_CTX_SYS_EXIT;
	a.nargs = 2;
	s.own = std::string("syscalls:") + std::string(entry ? k_enter : k_exit) + p->func;
	if (p->cookie != 0 && record_layout_ok(s, s.own.substr(9), entry)) {
		a.own_kind = DT_BPF_ATTACH_TRACEPOINT;
		a.own_target = s.own.c_str();
		a.own_offset = p->cookie; // the tracefs event ID
		a.own_ctx = DT_BPF_CTX_TP_RECORD;
		a.own_nargs = 16 + 8 * 6;
		for (int32_t i = 0; i < 10; i++)
			a.own_argmap[i] = entry ? (i < 6 ? 16 + 8 * i : -1) : (i < 2 ? 16 : -1);
	}
	dt::sdk::give_attach(out, a);
	return 0;
}

// How a probe fires (see the head comment).
int fires(state &s, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	bool entry = std::strcmp(p->name, "entry") == 0;
	if ((!entry && std::strcmp(p->name, "return") != 0) || !is_valid_name(p->func))
		return -ENOENT;
	uint32_t engines = DT_ENGINE_KMOD;
	if (syscall_number(p->func))
		engines |= DT_ENGINE_BPF;
	s.target = std::string("syscalls:") + std::string(entry ? k_enter : k_exit) + p->func;
	dt_probe_fire_t f = dt::sdk::fire_desc(DT_FIRE_TRACEPOINT, engines, s.target.c_str());
	f.flow = entry ? DT_FLOW_ENTRY : DT_FLOW_RETURN;
	f.flags = DT_FIRE_F_SYSCALL;
	f.errno_src = entry ? DT_ERRNO_NONE : DT_ERRNO_RETURN_ARG0;
	dt::sdk::give_fire(out, f);
	return 0;
}

/*
 * Operations
 */

int syscall_init(const dt_plugin_host_t *host, void **statep)
{
	return dt::sdk::guard([&] {
		auto *s = new state;
		s->host = host;
		if (host->tracefs != nullptr && *host->tracefs != '\0')
			s->dir = std::string(host->tracefs) + "/events/syscalls";
		*statep = s;
		return 0;
	});
}

void syscall_fini(void *st)
{
	delete static_cast<state *>(st);
}

int syscall_probes(void *st, const dt_probe_query_t *q, dt_probe_cb cb, void *arg)
{
	return dt::sdk::guard([&] { return list_probes(*static_cast<state *>(st), q, cb, arg); });
}

int syscall_probe_args(void *st, const dt_probe_info_t *p, dt_arg_cb cb, void *arg)
{
	return dt::sdk::guard([&] { return describe_args(*static_cast<state *>(st), p, cb, arg); });
}

int syscall_bpf_attach(void *st, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	return dt::sdk::guard([&] { return bpf_attach(*static_cast<state *>(st), p, out); });
}

int syscall_fires(void *st, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	return dt::sdk::guard([&] { return fires(*static_cast<state *>(st), p, out); });
}

const dt_plugin_bpf_ops_t k_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = syscall_bpf_attach,
};

// kmod engine: the kernel half, plugins/syscall/kernel (dtrace_syscall.ko).
const dt_plugin_kmod_ops_t k_kmod_ops = dt::sdk::kernel_module("dtrace_syscall");

// illumos systrace_attr.
const dt_plugin_ops_t k_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = "syscall",
	.description = "system call entry and return (tracefs syscalls events)",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_ISA},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_ISA}},
	.priv = DT_PRIV_USER,
	.flags = 0,
	.init = syscall_init,
	.fini = syscall_fini,
	.probes = syscall_probes,
	.probe_args = syscall_probe_args,
	.kmod = &k_kmod_ops,
	.bpf = &k_bpf_ops,
	.fires = syscall_fires,
};

} // namespace
} // namespace dt::plugin::syscall

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): X:entry and X:return.
DT_PLUGIN_NOTE(0, "entry return");

DT_PLUGIN_DEFINE(dt::plugin::syscall::k_ops)
}
