// SPDX-License-Identifier: MIT
//
// consumer/records.cc - firings in the principal buffer, decoded by EPID
// and printed as dtrace(1) prints them (illumos dtrace.c chew()/chewrec()
// and dt_consume.c dt_consume_cpu()):
//
//   [epid | ts]  ─► the enabled probe ─► its clause ─► each action's
//                    records at their offsets ─► trace/printf/stack/...
//
//   banner (once, not with -q)   "CPU     ID                    FUNCTION:NAME"
//   per firing (not with -q)     "%3d %6d %32s " cpu, probe id, func:name
//   then each action's output, then (not with -q) "\n".
#include "internal.hpp"
#include "json.hpp"
#include "util/bytes.hpp"

#include <dtrace/options.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

#include <cstdlib>
#include <cstring>

namespace dt::consumer_impl {

datum record_datum(const record &r, const uint8_t *firing, size_t len)
{
	datum d;
	if (static_cast<size_t>(r.offset) + r.size > len)
		return d;
	d.p = firing + r.offset;
	d.size = r.size;
	d.kind = r.type.k;
	d.is_signed = r.type.is_signed;
	return d;
}

// dt_print_bytes()
std::string print_bytes(const uint8_t *bytes, size_t nbytes, int width, bool quiet, bool forceraw,
			bool rawbytes)
{
	const char *c = reinterpret_cast<const char *>(bytes);
	if (nbytes == 0)
		return {};
	if (!forceraw && !rawbytes) {
		size_t i;
		for (i = 0; i < nbytes; i++) {
			unsigned char ch = static_cast<unsigned char>(c[i]);
			if ((c[i] > 0 && (std::isprint(ch) || std::isspace(ch))) || c[i] == '\b' ||
			    c[i] == '\a')
				continue;
			if (c[i] == '\0' && i > 0) {
				size_t j;
				for (j = i + 1; j < nbytes; j++)
					if (c[j] != '\0')
						break;
				if (j != nbytes)
					break;
				if (quiet)
					return std::string(c, i);
				std::string s(c, i);
				return strf(" %s%*s", width < 0 ? " " : "", width, s.c_str());
			}
			break;
		}
		if (i == nbytes) {
			std::string s(c, nbytes);
			return strf("  %-*s", width, s.c_str());
		}
	}
	const int margin = 5;
	std::string o = strf("\n%*s      ", margin, "");
	for (int i = 0; i < 16; i++)
		o += strf("  %c", "0123456789abcdef"[i]);
	o += "  0123456789abcdef\n";
	for (size_t i = 0; i < nbytes; i += 16) {
		o += strf("%*s%5zx:", margin, "", i);
		size_t j;
		for (j = i; j < i + 16 && j < nbytes; j++)
			o += strf(" %02x", static_cast<unsigned char>(c[j]));
		while (j++ % 16)
			o += "   ";
		o += "  ";
		for (j = i; j < i + 16 && j < nbytes; j++)
			o += (c[j] < ' ' || c[j] > '~') ? '.' : c[j];
		o += "\n";
	}
	return o;
}

namespace {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
std::string sfmt(const std::string &f, const std::string &s)
{
	int n = std::snprintf(nullptr, 0, f.c_str(), s.c_str());
	if (n <= 0)
		return {};
	std::string o(static_cast<size_t>(n) + 1, '\0');
	std::snprintf(o.data(), o.size(), f.c_str(), s.c_str());
	o.resize(static_cast<size_t>(n));
	return o;
}
#pragma GCC diagnostic pop

} // namespace

namespace {

bool tracing_frame(state &st, uint64_t pc)
{
	auto s = st.syms.kernel(pc);
	if (!s)
		return false;
	if (s->object == "bpf")
		return true;
	static const char *const prefixes[] = {"bpf_trace_run",
					       "__bpf_trace_",
					       "__traceiter_",
					       "trace_call_bpf",
					       "perf_trace_run_bpf_submit",
					       "bpf_overflow_handler",
					       "__perf_event_overflow",
					       "perf_swevent_hrtimer"};
	for (const char *p : prefixes)
		if (s->name.rfind(p, 0) == 0)
			return true;
	return false;
}

} // namespace

uint32_t ustack_frames(const state &st)
{
	return resolve_options(st.prog.options).ustackframes;
}

// The frames of a stack() or ustack() record, leaf first, as
// dt_print_stack() / dt_print_ustack() walk them.
std::vector<stack_frame> stack_frames(state &st, const datum &d)
{
	std::vector<stack_frame> v;
	if (d.kind == value_type::kind::ustack) {
		if (d.size < 16)
			return v;
		if (unwinder::is_capture(d.p, d.size)) {
			auto pid = static_cast<pid_t>(bytes::load_uint(d.p, 8));
			uint32_t max = d.nframes ? d.nframes : ustack_frames(st);
			for (uint64_t pc : st.unwind.unwind(d.p, d.size, max)) {
				stack_frame f;
				f.pc = pc;
				f.pid = pid;
				f.user = true;
				f.text = st.opt.noresolve ? st.syms.unresolved(pid, pc)
							  : st.syms.uframe(pid, pc);
				v.push_back(std::move(f));
			}
			return v;
		}
		uint32_t strsize = d.strsize <= d.size ? d.strsize : 0;
		uint32_t depth = (d.size - strsize) / 8 - 1;
		auto pid = static_cast<pid_t>(bytes::load_uint(d.p, 8));
		const char *strbase = reinterpret_cast<const char *>(d.p) + (depth + 1) * 8;
		const char *str = strsize ? strbase : nullptr;
		for (uint32_t i = 0; i < depth; i++) {
			uint64_t pc = bytes::load_uint(d.p + 8 * (i + 1), 8);
			if (pc == 0)
				break;
			stack_frame f;
			f.pc = pc;
			f.pid = pid;
			f.user = true;
			auto s = st.opt.noresolve ? std::nullopt : st.syms.user(pid, pc);
			if (st.opt.noresolve)
				f.text = st.syms.unresolved(pid, pc);
			else if (s && !s->name.empty())
				f.text = st.syms.uframe(pid, pc);
			else if (str && str[0] != '\0' && str[0] != '@')
				f.text = std::string(
					str,
					strnlen(str, static_cast<size_t>(strbase + strsize - str)));
			else
				f.text = st.syms.uframe(pid, pc);
			if (str && str[0] == '@') {
				f.annotated = true;
				f.annotation = std::string(str + 1);
			}
			v.push_back(std::move(f));
			if (str) {
				str += strnlen(str, static_cast<size_t>(strbase + strsize - str)) +
				       1;
				if (str - strbase >= static_cast<long>(strsize))
					str = nullptr;
			}
		}
		return v;
	}
	uint32_t depth = d.size / 8;
	bool leading = true;
	for (uint32_t i = 0; i < depth; i++) {
		uint64_t pc = bytes::load_uint(d.p + 8 * i, 8);
		if (pc == 0)
			break;
		// The frames of the tracing machinery above the probe site (a
		// bpf program and the tracepoint or perf event dispatching to
		// it) are the engine's, not the traced code's: illumos skips its
		// own the same way (aframes).
		if (leading && tracing_frame(st, pc))
			continue;
		leading = false;
		stack_frame f;
		f.pc = pc;
		f.text = st.syms.kframe(pc);
		v.push_back(std::move(f));
	}
	return v;
}

// dt_print_stack() / dt_print_ustack()
std::string print_stack(state &st, const datum &d, const std::string &format, int indent)
{
	if (d.kind == value_type::kind::ustack && d.size < 16)
		return {};
	std::string o = "\n";
	std::string pad(static_cast<size_t>(std::max(indent, 0)), ' ');
	for (const stack_frame &f : stack_frames(st, d)) {
		o += pad + sfmt(format, f.text) + "\n";
		if (f.annotated)
			o += pad + sfmt(format, "  [ " + f.annotation + " ]") + "\n";
	}
	return o;
}

// dt_print_sym(), dt_print_mod(), dt_print_usym(), dt_print_umod()
std::string print_symbolic(state &st, const datum &d, const std::string &format)
{
	using k = value_type::kind;
	std::string s;
	if (d.kind == k::sym || d.kind == k::mod) {
		uint64_t pc = bytes::load_uint(d.p, d.size == 4 ? 4 : 8);
		s = d.kind == k::sym ? st.syms.ksym(pc) : st.syms.kmod(pc);
	} else {
		if (d.size < 16)
			return {};
		auto pid = static_cast<pid_t>(bytes::load_uint(d.p, 8));
		uint64_t pc = bytes::load_uint(d.p + 8, 8);
		if (d.kind == k::umod)
			s = st.syms.umod(pid, pc);
		else if (st.opt.noresolve)
			s = st.syms.unresolved(pid, pc);
		else if (d.kind == k::usym)
			s = st.syms.usym(pid, pc);
		else
			s = st.syms.uaddr2str(pid, pc);
	}
	return sfmt(format, s);
}

namespace {

using k = value_type::kind;

// trace(): integers by size, else bytes (dt_consume_cpu's default case).
std::string print_trace(state &st, const datum &d, uint16_t act)
{
	bool quiet = st.opt.quiet;
	if (act == DTRACEACT_STACK || act == DTRACEACT_USTACK || act == DTRACEACT_JSTACK ||
	    d.kind == k::stack || d.kind == k::ustack)
		return print_stack(st, d, "%s", st.opt.stackindent);
	if (act == DTRACEACT_SYM || act == DTRACEACT_MOD || act == DTRACEACT_USYM ||
	    act == DTRACEACT_UMOD || act == DTRACEACT_UADDR || d.kind == k::sym ||
	    d.kind == k::mod || d.kind == k::usym || d.kind == k::umod || d.kind == k::uaddr)
		return print_symbolic(st, d, "  %-50s");
	// Strings and by-value data go by bytes whatever their size (illumos
	// goes by size alone; a strsize of 8 would print a string as a number).
	if (d.kind == k::string || d.kind == k::bytes)
		return print_bytes(d.p, d.size, -33, quiet, false, st.opt.rawbytes);
	switch (d.size) {
	case 8:
		return strf(quiet ? "%lld" : " %16lld",
			    static_cast<long long>(bytes::load_int(d.p, 8)));
	case 4: return strf(quiet ? "%d" : " %8d", static_cast<int>(bytes::load_int(d.p, 4)));
	case 2: return strf(quiet ? "%d" : " %5d", static_cast<int>(bytes::load_uint(d.p, 2)));
	case 1: return strf(quiet ? "%d" : " %3d", static_cast<int>(bytes::load_uint(d.p, 1)));
	default: return print_bytes(d.p, d.size, -33, quiet, false, st.opt.rawbytes);
	}
}

// print(): a scalar with its type name, as illumos dt_print.c prints one
// (dt_print_int/dt_print_hex: characters quoted, other integers and
// pointers in hex). Structs and arrays need member types the program does
// not carry: they print as trace() does (dtrace_print() returning 0).
// dt_print.c dt_print_member() for one scalar or char-array value.
std::string typed_scalar(const uint8_t *p, const value_type &t, bool top)
{
	if (t.k == k::string) {
		size_t n = 0;
		while (n < t.size && p[n] != 0 && std::isprint(p[n]))
			n++;
		std::string s(reinterpret_cast<const char *>(p), n);
		if (n < t.size && p[n] == 0)
			return top ? "\"" + s + "\"" : "[ \"" + s + "\" ]";
		std::string o = "[ ";
		for (size_t i = 0; i < t.size; i++)
			o += strf(i + 1 < t.size ? "%#x, " : "%#x", static_cast<unsigned>(p[i]));
		return o + " ]";
	}
	if (t.k == k::integer && t.size == 1 &&
	    (t.name == "char" || t.name == "signed char" || t.name == "unsigned char")) {
		char c = static_cast<char>(*p);
		if (c > 0 && std::isprint(static_cast<unsigned char>(c)))
			return strf("'%c'", c);
		if (c == 0)
			return "'\\0'";
		return strf("'\\%03o'", static_cast<int>(c));
	}
	if (t.size == 8)
		return strf("%#llx", static_cast<unsigned long long>(bytes::load_uint(p, 8)));
	return strf("%#x", static_cast<unsigned>(bytes::load_uint(p, t.size)));
}

// dt_print_member() over a struct's members (ctf_type_visit order): the
// type, " name =", then "{" and the members 4 columns deeper, closed by
// "}" (no newline after the outermost one).
std::string typed_sou(const uint8_t *p, size_t len, const std::string &name, const value_type &t,
		      int depth)
{
	std::string o(static_cast<size_t>(depth) * 4, ' ');
	o += t.name;
	if (!name.empty()) {
		if (!t.name.empty() && t.name.back() != '*' && t.name.back() != ' ')
			o += " ";
		o += name + " =";
	}
	o += " ";
	if (t.members.empty())
		return o + typed_scalar(p, t, false) + "\n";
	o += "{\n";
	for (const auto &m : t.members) {
		if (m.offset + m.type.size > len)
			break;
		o += typed_sou(p + m.offset, len - m.offset, m.name, m.type, depth + 1);
	}
	o += std::string(static_cast<size_t>(depth) * 4, ' ') + "}";
	if (depth > 0)
		o += "\n";
	return o;
}

std::string print_typed(state &st, const datum &d, const value_type &t)
{
	if (t.k == k::bytes && !t.members.empty() && d.p && d.size >= t.size)
		return typed_sou(d.p, d.size, "", t, 0);
	// dt_print_array(): a top-level char array of printable characters
	// then a NUL prints as  string "foo"  (D strings are char arrays).
	if (t.k == k::string && d.p) {
		size_t n = 0;
		while (n < d.size && d.p[n] != 0 && std::isprint(d.p[n]))
			n++;
		if (n < d.size && d.p[n] == 0)
			return (t.name.empty() ? std::string("string") : t.name) + " \"" +
			       std::string(reinterpret_cast<const char *>(d.p), n) + "\"\n";
	}
	if (t.name.empty() || (t.k != k::integer && t.k != k::pointer) ||
	    (d.size != 1 && d.size != 2 && d.size != 4 && d.size != 8))
		return print_trace(st, d, DTRACEACT_DIFEXPR);
	std::string v;
	if (t.k == k::integer && d.size == 1 &&
	    (t.name == "char" || t.name == "signed char" || t.name == "unsigned char")) {
		char c = static_cast<char>(*d.p);
		if (c > 0 && std::isprint(static_cast<unsigned char>(c)))
			v = strf("'%c'", c);
		else if (c == 0)
			v = "'\\0'";
		else
			v = strf("'\\%03o'", static_cast<int>(c));
	} else if (d.size == 8) {
		v = strf("%#llx", static_cast<unsigned long long>(bytes::load_uint(d.p, 8)));
	} else {
		v = strf("%#x", static_cast<unsigned>(bytes::load_uint(d.p, d.size)));
	}
	return t.name + " " + v + "\n";
}

std::vector<datum> arg_datums(const action &a, const uint8_t *firing, size_t len)
{
	std::vector<datum> v;
	for (const auto &r : a.args) {
		datum d = record_datum(r, firing, len);
		if (d.p && a.kind == DTRACEACT_USTACK) {
			d.strsize = a.strsize;
			d.nframes = a.nframes;
		}
		v.push_back(d);
	}
	return v;
}

void refresh(state &st)
{
	if (st.settings.refresh)
		st.settings.refresh();
}

// dtrace_freopen(): redirect the output; "" (or illumos' "\1") restores it.
void do_freopen(state &st, const std::string &name, const enabled_probe &ep)
{
	std::fflush(st.out);
	if (name.empty() || name == "\x01") {
		if (st.stdout_fd < 0)
			return;
		::dup2(st.stdout_fd, fileno(st.out));
		return;
	}
	int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (fd < 0) {
		// dt_handle_liberr()
		std::string why =
			strf("couldn't freopen() \"%s\": %s", name.c_str(), std::strerror(errno));
		std::fflush(st.out);
		std::fputs(strf("dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s\n",
				ep.epid, ep.probe_id, ep.probe.provider.c_str(),
				ep.probe.mod.c_str(), ep.probe.func.c_str(), ep.probe.name.c_str(),
				why.c_str())
				   .c_str(),
			   st.settings.err);
		return;
	}
	if (st.stdout_fd < 0)
		st.stdout_fd = ::fcntl(fileno(st.out), F_DUPFD_CLOEXEC, 0);
	::dup2(fd, fileno(st.out));
	::close(fd);
}

// dt_flowindent(): the prefix and indent of a firing with -F. The probe's
// flow is its provider's word (enabled_probe::flow). An entry right after
// another ECB of the same probe, or a return right before one, does not
// move the indent (the same probe enabled twice).
std::string flow_name(state &st, const enabled_probe &ep, uint32_t next_epid)
{
	const auto &pd = ep.probe;
	bool sys = ep.flow_syscall;
	int flow = 0; // 1 entry, 2 return
	if (ep.flow == probe_flow::entry)
		flow = 1;
	else if (ep.flow == probe_flow::ret)
		flow = 2;
	if (flow == 1 && st.last_epid != DTRACE_EPIDNONE && st.last_epid != ep.epid) {
		const enabled_probe *last = st.ep(st.last_epid);
		if (last && last->probe_id == ep.probe_id)
			flow = 0;
	}
	if (flow == 2 && next_epid != DTRACE_EPIDNONE && next_epid != ep.epid) {
		const enabled_probe *next = st.ep(next_epid);
		if (next && next->probe_id == ep.probe_id)
			flow = 0;
	}
	const char *prefix = flow == 1	 ? (sys ? " => " : " -> ")
			     : flow == 2 ? (sys ? " <= " : " <- ")
					 : "| ";
	if (flow == 2 && st.indent > 0)
		st.indent -= 2;
	std::string name = std::string(static_cast<size_t>(st.indent), ' ') + prefix + pd.func;
	if (flow == 0)
		name += ":" + pd.name;
	if (flow == 1)
		st.indent += 2;
	return name;
}

// illumos dtrace_setopt() while tracing, then dt_setopt(): an unknown
// option, a bad value, or an option only dtrace_go() reads (the run-time
// options of dt_options.c, as opposed to its dynamic ones) is reported
// through the error handler as dt_handle_liberr() words it.
void runtime_setopt(state &st, const enabled_probe &ep, const std::string &name,
		    const std::string &value)
{
	static const char *const fixed_at_go[] = {
		"aggsize",	 "bufsize",	 "bufpolicy",  "bufresize",   "cleanrate",
		"cpu",		 "destructive",	 "dynvarsize", "grabanon",    "jstackframes",
		"jstackstrsize", "nspec",	 "specsize",   "stackframes", "statusrate",
		"strsize",	 "ustackframes", "temporal",   "oformat"};
	const char *why = option_error(name, value, true);
	if (!why && std::find_if(std::begin(fixed_at_go), std::end(fixed_at_go),
				 [&](const char *n) { return name == n; }) != std::end(fixed_at_go))
		why = "Operation illegal when tracing is active";
	if (!why) {
		st.set_option(name, value);
		return;
	}
	const probe_desc &pd = ep.probe;
	std::fflush(st.out);
	std::fputs(strf("dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): couldn't set "
			"option \"%s\" to \"%s\": %s\n\n",
			ep.epid, ep.probe_id, pd.provider.c_str(), pd.mod.c_str(), pd.func.c_str(),
			pd.name.c_str(), name.c_str(), value.c_str(), why)
			   .c_str(),
		   st.settings.err);
}

// system(): the command's output goes where dtrace's stdout goes; under
// oformat=json, to stderr instead, so that stdout stays JSON Lines.
void run_system(state &st, const std::string &command)
{
	std::fflush(st.out);
	std::fflush(st.settings.err);
	int saved = -1;
	if (st.json && fileno(st.out) == STDOUT_FILENO) {
		saved = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
		if (saved >= 0)
			::dup2(fileno(st.settings.err), STDOUT_FILENO);
	}
	if (!st.system_wait) {
		int rc = std::system(command.c_str());
		(void)rc;
	} else {
		// As system(3), polling: the command's processes may stop until
		// system_wait() has seen to them.
		const char *argv[] = {"sh", "-c", command.c_str(), nullptr};
		pid_t pid = -1;
		if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char **>(argv),
				environ) == 0) {
			int ws = 0;
			pid_t r;
			while ((r = waitpid(pid, &ws, WNOHANG)) == 0 || (r < 0 && errno == EINTR)) {
				st.system_wait();
				usleep(2000);
			}
		}
	}
	if (saved >= 0) {
		::dup2(saved, STDOUT_FILENO);
		::close(saved);
	}
}

void do_action(state &st, const enabled_probe &ep, const action &a, const uint8_t *firing,
	       size_t len, uint64_t &tracememsize)
{
	auto args = arg_datums(a, firing, len);
	auto arg0 = [&]() -> const datum * {
		return !args.empty() && args[0].p ? &args[0] : nullptr;
	};
	switch (a.kind) {
	case DTRACEACT_NONE: return;
	case DTRACEACT_EXIT:
		if (auto *d = arg0())
			st.exit_status = static_cast<int>(bytes::load_int(d->p, d->size));
		return;
	case DTRACEACT_PRINTF:
	case DTRACEACT_SYSTEM:
	case DTRACEACT_FREOPEN: {
		std::string text;
		if (!format_text(st, st.format_of(a), args, {}, text))
			return;
		if (a.kind == DTRACEACT_PRINTF) {
			if (st.json)
				st.json->printf(text, args);
			else
				st.put(text);
		} else if (a.kind == DTRACEACT_SYSTEM) {
			if (st.json)
				st.json->system(text);
			run_system(st, text);
		} else {
			do_freopen(st, text, ep);
		}
		return;
	}
	case DTRACEACT_PRINTA: {
		refresh(st);
		if (a.format.empty())
			print_aggs(st, a.aggs, nullptr);
		else
			print_aggs(st, a.aggs, &st.format_of(a));
		return;
	}
	case DTRACEACT_LIBACT:
		switch (a.libact) {
		case DT_ACT_CLEAR:
			refresh(st);
			for (auto id : a.aggs)
				st.aggs.clear(id);
			return;
		case DT_ACT_DENORMALIZE:
			for (auto id : a.aggs)
				st.aggs.denormalize(id);
			return;
		case DT_ACT_NORMALIZE:
			if (auto *d = arg0())
				for (auto id : a.aggs)
					st.aggs.normalize(id, bytes::load_uint(d->p, d->size));
			return;
		case DT_ACT_TRUNC: {
			refresh(st);
			int64_t n = 0;
			if (auto *d = arg0())
				n = bytes::load_int(d->p, d->size);
			for (auto id : a.aggs)
				st.aggs.trunc(id, n);
			return;
		}
		case DT_ACT_SETOPT: {
			auto *d = arg0();
			if (!d)
				return;
			std::string name(reinterpret_cast<const char *>(d->p),
					 strnlen(reinterpret_cast<const char *>(d->p), d->size));
			// A toggle (no value) is set to "1", as dt_consume.c does.
			std::string value = "1";
			if (args.size() > 1 && args[1].p)
				value.assign(reinterpret_cast<const char *>(args[1].p),
					     strnlen(reinterpret_cast<const char *>(args[1].p),
						     args[1].size));
			runtime_setopt(st, ep, name, value);
			return;
		}
		case DT_ACT_FTRUNCATE:
			std::fflush(st.out);
			if (::ftruncate(fileno(st.out), 0) == 0)
				::fseeko(st.out, 0, SEEK_SET);
			return;
		default: return;
		}
	case DTRACEACT_TRACEMEM_DYNSIZE:
		if (auto *d = arg0())
			tracememsize = bytes::load_uint(d->p, d->size);
		return;
	case DTRACEACT_TRACEMEM: {
		auto *d = arg0();
		if (!d)
			return;
		uint64_t n = d->size;
		if (args.size() > 1 && args[1].p)
			tracememsize = bytes::load_uint(args[1].p, args[1].size);
		if (tracememsize != 0 && tracememsize < n)
			n = tracememsize;
		tracememsize = 0;
		if (st.json)
			st.json->tracemem(d->p, n);
		else
			st.put(print_bytes(d->p, n, -33, st.opt.quiet, true, st.opt.rawbytes));
		return;
	}
	default: break;
	}
	if (DTRACEACT_ISAGG(a.kind) || DTRACEACT_ISSPECULATIVE(a.kind) ||
	    a.kind == DTRACEACT_STOP || a.kind == DTRACEACT_RAISE ||
	    a.kind == DTRACEACT_BREAKPOINT || a.kind == DTRACEACT_PANIC ||
	    a.kind == DTRACEACT_CHILL)
		return;
	if (a.kind == DTRACEACT_PRINTM) {
		for (size_t i = 0; i < args.size(); i++) {
			if (!args[i].p || !args[i].size)
				continue;
			if (st.json)
				st.json->print(args[i], a.args[i].type);
			else
				st.put(print_typed(st, args[i], a.args[i].type));
		}
		return;
	}
	// trace(), stack(), ustack(), sym() ... : one record each.
	for (const auto &d : args) {
		if (!d.p || !d.size)
			continue;
		if (st.json)
			st.json->trace(d);
		else
			st.put(print_trace(st, d, a.kind));
	}
}

} // namespace

void consume_records(state &st, std::span<const uint8_t> buf, uint32_t cpu)
{
	size_t offs = 0;
	uint64_t tracememsize = 0;
	while (offs + sizeof(uint32_t) <= buf.size()) {
		uint32_t epid;
		std::memcpy(&epid, buf.data() + offs, sizeof epid);
		if (epid == DTRACE_EPIDNONE) {
			offs += sizeof epid;
			continue;
		}
		const enabled_probe *ep = st.ep(epid);
		if (!ep || ep->clause >= st.prog.clauses.size())
			return;
		const clause &cl = st.prog.clauses[ep->clause];
		size_t size = std::max<size_t>(cl.size, sizeof(dtrace_rechdr_t));
		if (offs + size > buf.size())
			return;
		const uint8_t *firing = buf.data() + offs;

		if (st.json) {
			dtrace_rechdr_t hdr;
			std::memcpy(&hdr, firing, sizeof hdr);
			st.json->begin_firing(*ep, cpu,
					      (static_cast<uint64_t>(hdr.dtrh_timestamp_hi) << 32) |
						      hdr.dtrh_timestamp_lo);
			for (const auto &a : cl.actions)
				if (a.records || a.kind != DTRACEACT_DIFEXPR)
					do_action(st, *ep, a, firing, size, tracememsize);
			st.json->end_firing(st.cli_quiet);
			st.last_epid = epid;
			offs += size;
			continue;
		}

		// chew(): dtrace(1) reads quiet and flowindent once, before
		// tracing; setopt() changes only what libdtrace formats.
		if (!st.heading) {
			if (!st.cli_flowindent) {
				if (!st.cli_quiet)
					st.put(strf("%3s %6s %32s\n", "CPU", "ID",
						    "FUNCTION:NAME"));
			} else {
				st.put(strf("%3s %-41s\n", "CPU", "FUNCTION"));
			}
			st.heading = true;
		}
		if (!st.cli_flowindent) {
			if (!st.cli_quiet) {
				std::string name = ep->probe.func + ":" + ep->probe.name;
				st.put(strf("%3u %6u %32s ", cpu, ep->probe_id, name.c_str()));
			}
		} else {
			uint32_t next = DTRACE_EPIDNONE;
			for (size_t o = offs + size; o + 4 <= buf.size(); o += 4) {
				std::memcpy(&next, buf.data() + o, 4);
				if (next != DTRACE_EPIDNONE)
					break;
			}
			std::string name = flow_name(st, *ep, next);
			st.put(strf("%3u %-41s ", cpu, name.c_str()));
		}

		for (const auto &a : cl.actions)
			// Statements that only change state record nothing.
			if (a.records || a.kind != DTRACEACT_DIFEXPR)
				do_action(st, *ep, a, firing, size, tracememsize);

		// chewrec(NULL)
		if (!st.cli_quiet)
			st.put("\n");
		st.last_epid = epid;
		offs += size;
	}
}

} // namespace dt::consumer_impl
