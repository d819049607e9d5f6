// SPDX-License-Identifier: MIT
// The fbt provider (illumos fbt: function boundary tracing):
//
//   kernel function F in vmlinux      ->  fbt:vmlinux:F:entry, fbt:vmlinux:F:return
//   kernel function F in module M     ->  fbt:M:F:entry,       fbt:M:F:return
//
// The functions come from <tracefs>/available_filter_functions when it is
// readable (exactly what ftrace can patch), else from /proc/kallsyms text
// symbols; function_source.hpp has the naming rules. The cookie is the
// function's address when the source gives one (kallsyms), else 0.
//
// Arguments come from BTF (btf_args.hpp), loaded on the first probe_args()
// and kept for the session:
//
//   entry:  args[i] = parameter i, typed and named as in BTF;
//   return: args[0] = int, the return offset (illumos);
//           args[1] = the return type (absent for void functions).
//
// Laziness: the source is read once per probes() call and filtered by the
// query's module and function as it is read; only matching functions are
// remembered (to list a function repeated by kallsyms once).
//
// bpf engine (attach, attach_method.hpp): where the kernel's BPF
// trampolines work, fentry (entry) and fexit (return) programs at the
// function's BTF id, reading the arguments and the return value from the
// trampoline's context; else (and for functions fentry cannot take) a
// kprobe (entry, context REGS) or a kretprobe (return, REGS_RETURN),
// where the kernel has kprobes (CONFIG_KPROBES: the perf `kprobe` PMU or
// <tracefs>/kprobe_events). The plugin answers per function; the engine
// groups: more than a few trampolines in one enabling become kprobes, and
// more than a few kprobes become one program and one kprobe_multi link per
// kind (entry, return) where the kernel has fprobes (CONFIG_FPROBE, e.g.
// 6.12), the function told by the link's attach cookie
// (core/engine/bpf/attach.hpp); else one program and perf event each.
// Return probes: args[1] (arg1) is the return value; args[0] (arg0),
// illumos' offset of the returning instruction, is 0: neither a
// trampoline nor a kretprobe knows which `ret` the function took.
// Without either: -ENOTSUP, "fbt probes need kprobes or BPF trampolines,
// which this kernel does not provide".
//
// kmod engine: the kernel half dtrace_fbt.ko (plugins/fbt/kernel), which
// cannot walk the kernel's symbols: the kmod provide hook writes the
// functions of the matched probes to its `provide` parameter, "MODULE
// FUNCTION ADDRESS" lines, a page at a time; it registers a kprobe (entry)
// or a kretprobe (return) when a probe is enabled, at the address once it
// has checked that the address is the function's (else by name: the kprobe
// core's kallsyms lookup). The address is the probe's
// cookie (kallsyms source), else one pass over /proc/kallsyms for the
// functions without one, made only for k_addr_min functions or more (one
// pass costs about what a few lookups by name do). DTRACE_FBT_KMOD_BY_NAME=1
// sends address 0 for every function (registration by name, as before: to
// measure it and to test that path).
//
// fires: DT_FIRE_KPROBE on the function, flow entry or return (-F: -> and
// <-); engines: bpf and kmod.
#include "attach_method.hpp"
#include "btf_args.hpp"
#include "function_source.hpp"

#include <dtrace/plugin.hpp>

#include <fcntl.h>
#include <fnmatch.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace dt::plugin::fbt {
namespace {

struct state {
	explicit state(const dt_plugin_host_t *h) : host(h), btf(h) {}
	const dt_plugin_host_t *host;
	btf_cache btf;
	std::optional<std::unordered_set<std::string>> blacklist;
	bool logged_source = false;
	std::string attach_target;	     // the last bpf attach()'s target
	std::string fire_target;	     // the last fires()'s target
	std::optional<attach_method> method; // chosen at the first bpf attach()
	bool kprobes = false;
};

// A query field compiled for the per-line test: "" (or absent) matches
// anything, plain names compare as strings, and globs go through
// fnmatch(3) as in dt::sdk::field_matches(), but on a reused NUL-terminated
// copy (the function source hands out string_views). The host re-filters
// everything with its own matcher, so this is only a hint.
class field_filter {
public:
	explicit field_filter(const char *glob)
		: glob_(glob && *glob ? glob : ""),
		  plain_(!glob_.empty() && !dt::sdk::is_glob(glob_))
	{
	}
	bool operator()(std::string_view s)
	{
		if (glob_.empty())
			return true;
		if (plain_)
			return s == glob_;
		scratch_.assign(s);
		return fnmatch(glob_.c_str(), scratch_.c_str(), 0) == 0;
	}

private:
	std::string glob_;
	bool plain_;
	std::string scratch_;
};

int list_probes(state &s, const dt_probe_query_t *q, dt_probe_cb cb, void *arg)
{
	bool want_entry = dt::sdk::field_matches(q->name, "entry");
	bool want_return = dt::sdk::field_matches(q->name, "return");
	if (!want_entry && !want_return)
		return 0;
	if (!s.blacklist)
		s.blacklist = read_kprobe_blacklist();
	field_filter mod_ok(q->mod), func_ok(q->func);
	std::unordered_set<std::string> seen; // "mod\0func" of listed functions
	std::string key, mod, func;
	bool stop = false;
	source_kind used = source_kind::none;
	std::string why;
	int err = walk_functions(
		s.host->tracefs,
		[&](const function_entry &e) {
			if (!func_ok(e.func) || !mod_ok(e.mod) || !is_probeable(e))
				return false;
			func.assign(e.func);
			if (s.blacklist->count(func))
				return false;
			mod.assign(e.mod);
			key.assign(mod).append(1, '\0').append(func);
			if (!seen.insert(key).second)
				return false;
			if (want_entry) {
				dt_probe_info_t p = {sizeof(p),	   "fbt",   mod.c_str(),
						     func.c_str(), "entry", e.addr};
				if (cb(arg, &p))
					return stop = true;
			}
			if (want_return) {
				dt_probe_info_t p = {sizeof(p),	   "fbt",    mod.c_str(),
						     func.c_str(), "return", e.addr};
				if (cb(arg, &p))
					return stop = true;
			}
			return false;
		},
		used, why);
	if (!s.logged_source) {
		s.logged_source = true;
		s.host->log(s.host, DT_LOG_DEBUG, "fbt: functions from %s%s%s%s", source_name(used),
			    why.empty() ? "" : " (", why.c_str(), why.empty() ? "" : ")");
	}
	if (err < 0 && !stop) {
		s.host->log(s.host, DT_LOG_WARN,
			    "fbt provider: cannot read the kernel's function list "
			    "(%s; /proc/kallsyms: %s)",
			    why.c_str(), std::strerror(-err));
		return err;
	}
	return 0;
}

int emit_arg(dt_arg_cb cb, void *arg, int ndx, const std::string &type, const std::string &name)
{
	dt_arg_desc_t a = {sizeof(a),	 ndx,	  ndx,
			   type.c_str(), nullptr, name.empty() ? nullptr : name.c_str()};
	return cb(arg, &a);
}

int describe_args(state &s, const dt_probe_info_t *p, dt_arg_cb cb, void *arg)
{
	bool entry = std::strcmp(p->name, "entry") == 0;
	if (!entry && std::strcmp(p->name, "return") != 0)
		return 0;
	func_sig sig;
	if (!s.btf.lookup(p->mod, p->func, sig))
		return 0; // no BTF for it: untyped, not an error
	if (entry) {
		int ndx = 0;
		for (const auto &param : sig.params)
			if (emit_arg(cb, arg, ndx++, param.type, param.name))
				break;
		return 0;
	}
	if (emit_arg(cb, arg, 0, "int", "") == 0 && !sig.ret.empty())
		emit_arg(cb, arg, 1, sig.ret, "");
	return 0;
}

// The bpf engine's hook for one function (attach_method.hpp chooses
// fentry/fexit or kprobes once per session):
//
//   fentry  FENTRY at the BTF id (offset), context the trampoline's u64
//           array (DT_BPF_CTX_RAW): args[i] = slot i, for i < nslots
//   fexit   FEXIT, the same array with the return value after the
//           arguments: args[0] = 0, args[1] = slot nslots
//   kprobe  KPROBE / KRETPROBE on the name, pt_regs (DT_BPF_CTX_REGS*)
//
// Functions fentry cannot take (a module's, no BTF, struct or float
// values) use kprobes where the kernel has them.
int bpf_attach(state &s, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	bool entry = std::strcmp(p->name, "entry") == 0;
	if ((!entry && std::strcmp(p->name, "return") != 0) || *p->func == '\0')
		return -ENOENT;
	if (!s.method) {
		s.method = choose_method(s.host, s.btf, p->func);
		s.kprobes = have_kprobes(s.host);
	}
	s.attach_target = p->func;
	tracing_shape shape;
	if (*s.method == attach_method::fentry && std::strcmp(p->mod, "vmlinux") == 0 &&
	    s.btf.tracing_target(s.attach_target, shape)) {
		dt_bpf_attach_t a =
			dt::sdk::bpf_attach_desc(entry ? DT_BPF_ATTACH_FENTRY : DT_BPF_ATTACH_FEXIT,
						 s.attach_target.c_str());
		a.offset = shape.btf_id;
		a.ctx = DT_BPF_CTX_RAW;
		a.nargs = shape.nslots + (entry ? 0 : 1);
		a.has_argmap = 1;
		for (uint32_t i = 0; i < 10; i++)
			a.argmap[i] = entry ? (i < shape.nslots ? static_cast<int32_t>(i) : -1)
					    : (i == 1 ? static_cast<int32_t>(shape.nslots) : -1);
		dt::sdk::give_attach(out, a);
		return 0;
	}
	if (!s.kprobes) {
		s.host->log(
			s.host, DT_LOG_WARN,
			*s.method == attach_method::fentry
				? "fbt probes on functions without BTF need kprobes, which this "
				  "kernel does not provide"
				: "fbt probes need kprobes or BPF trampolines, which this kernel "
				  "does not provide");
		return -ENOTSUP;
	}
	dt_bpf_attach_t a = dt::sdk::bpf_attach_desc(
		entry ? DT_BPF_ATTACH_KPROBE : DT_BPF_ATTACH_KRETPROBE, s.attach_target.c_str());
	a.ctx = entry ? DT_BPF_CTX_REGS : DT_BPF_CTX_REGS_RETURN;
	dt::sdk::give_attach(out, a);
	return 0;
}

int fires(state &s, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	bool entry = std::strcmp(p->name, "entry") == 0;
	if ((!entry && std::strcmp(p->name, "return") != 0) || *p->func == '\0')
		return -ENOENT;
	s.fire_target = p->func;
	dt_probe_fire_t f = dt::sdk::fire_desc(DT_FIRE_KPROBE, DT_ENGINE_BPF | DT_ENGINE_KMOD,
					       s.fire_target.c_str());
	f.flow = entry ? DT_FLOW_ENTRY : DT_FLOW_RETURN;
	dt::sdk::give_fire(out, f);
	return 0;
}

constexpr const char *k_kmod_module = "dtrace_fbt";
constexpr const char *k_provide_path = "/sys/module/dtrace_fbt/parameters/provide";
constexpr size_t k_provide_chunk = 4000; // sysfs takes a page per write
constexpr size_t k_addr_min = 8;	 // functions worth a pass over kallsyms

// Write one chunk of "MODULE FUNCTION" lines; 0 or a negative errno.
int write_chunk(state &s, int fd, const std::string &chunk)
{
	ssize_t n = write(fd, chunk.data(), chunk.size());
	if (n == static_cast<ssize_t>(chunk.size()))
		return 0;
	int err = n < 0 ? errno : EIO;
	// "MODULE FUNCTION[ ADDRESS]\n...": the first line's MODULE:FUNCTION.
	std::string first = chunk.substr(0, chunk.find_first_of(" \n"));
	first += ":" + chunk.substr(first.size() + 1, chunk.find_first_of(" \n", first.size() + 1) -
							      first.size() - 1);
	s.host->log(s.host, DT_LOG_ERROR, "fbt: %s refused the functions from %s on: %s",
		    k_kmod_module, first.c_str(), std::strerror(err));
	return -err;
}

// The distinct functions of `probes` ("MODULE FUNCTION") with their
// addresses (unless !addresses: all 0): the cookie, else from
// /proc/kallsyms (for k_addr_min functions or more), else 0. In the order
// of `probes`.
std::vector<std::pair<std::string, uint64_t>> provide_lines(const dt_probe_info_t *probes, size_t n,
							    bool addresses)
{
	std::unordered_map<std::string, uint64_t> addrs;
	std::vector<std::pair<std::string, uint64_t>> out;
	std::string key;
	size_t unknown = 0;
	for (size_t i = 0; i < n; i++) {
		if (*probes[i].mod == '\0' || *probes[i].func == '\0')
			continue;
		key.assign(probes[i].mod).append(1, ' ').append(probes[i].func);
		auto [it, fresh] = addrs.emplace(key, probes[i].cookie);
		if (!fresh)
			continue;
		unknown += it->second == 0;
		out.emplace_back(key, 0);
	}
	if (!addresses)
		return out; // all 0: written as " 0", which takes back an earlier one
	if (unknown >= k_addr_min) {
		std::unordered_map<std::string, uint64_t> wanted;
		for (const auto &[k, a] : addrs)
			if (a == 0)
				wanted.emplace(k, 0);
		if (kallsyms_addresses(wanted) == 0)
			for (const auto &[k, a] : wanted)
				addrs[k] = a;
	}
	for (auto &[k, a] : out)
		a = addrs[k];
	return out;
}

// The kmod provide hook: the distinct functions of `probes`, to the
// kernel half's `provide` parameter.
int kmod_provide(state &s, const dt_probe_info_t *probes, size_t n)
{
	std::string chunk, line;
	char hex[24];
	const char *by_name = std::getenv("DTRACE_FBT_KMOD_BY_NAME");
	bool addresses = by_name == nullptr || std::strcmp(by_name, "1") != 0;
	int fd = open(k_provide_path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		s.host->log(s.host, DT_LOG_ERROR, "fbt: cannot open %s: %s", k_provide_path,
			    std::strerror(err));
		return -err;
	}
	int rc = 0;
	for (const auto &[fn, addr] : provide_lines(probes, n, addresses)) {
		line.assign(fn);
		if (addr != 0 || !addresses) {
			std::snprintf(hex, sizeof(hex), " %llx",
				      static_cast<unsigned long long>(addr));
			line += hex;
		}
		line += '\n';
		if (chunk.size() + line.size() > k_provide_chunk) {
			rc = write_chunk(s, fd, chunk);
			chunk.clear();
			if (rc != 0)
				break;
		}
		chunk += line;
	}
	if (rc == 0 && !chunk.empty())
		rc = write_chunk(s, fd, chunk);
	close(fd);
	return rc;
}

/*
 * Operations
 */

int fbt_init(const dt_plugin_host_t *host, void **statep)
{
	// A failed allocation is -ENOMEM (dt::sdk::guard()), anything else -EIO.
	return dt::sdk::guard([&] {
		*statep = new state(host);
		return 0;
	});
}

void fbt_fini(void *st)
{
	delete static_cast<state *>(st);
}

int fbt_probes(void *st, const dt_probe_query_t *q, dt_probe_cb cb, void *arg)
{
	return dt::sdk::guard([&] { return list_probes(*static_cast<state *>(st), q, cb, arg); });
}

int fbt_probe_args(void *st, const dt_probe_info_t *p, dt_arg_cb cb, void *arg)
{
	return dt::sdk::guard([&] { return describe_args(*static_cast<state *>(st), p, cb, arg); });
}

int fbt_bpf_attach(void *st, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	return dt::sdk::guard([&] { return bpf_attach(*static_cast<state *>(st), p, out); });
}

int fbt_kmod_provide(void *st, const dt_probe_info_t *probes, size_t n)
{
	return dt::sdk::guard([&] { return kmod_provide(*static_cast<state *>(st), probes, n); });
}

int fbt_fires(void *st, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	return dt::sdk::guard([&] { return fires(*static_cast<state *>(st), p, out); });
}

const dt_plugin_kmod_ops_t k_kmod_ops = {
	.sz = sizeof(dt_plugin_kmod_ops_t),
	.module = k_kmod_module,
	.kernel_provider = nullptr,
	.provide = fbt_kmod_provide,
};

const dt_plugin_bpf_ops_t k_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = fbt_bpf_attach,
};

// illumos fbt_attr.
const dt_plugin_ops_t k_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = "fbt",
	.description = "kernel function entry and return (function boundary tracing)",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_ISA},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_ISA}},
	.priv = DT_PRIV_KERNEL,
	.flags = 0,
	.init = fbt_init,
	.fini = fbt_fini,
	.probes = fbt_probes,
	.probe_args = fbt_probe_args,
	.kmod = &k_kmod_ops,
	.bpf = &k_bpf_ops,
	.fires = fbt_fires,
};

} // namespace
} // namespace dt::plugin::fbt

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): function entry and return.
DT_PLUGIN_NOTE(0, "entry return");

DT_PLUGIN_DEFINE(dt::plugin::fbt::k_ops)
}
