// SPDX-License-Identifier: MIT
// The USDT providers (dt_usdt.so): statically defined probes of user
// programs and libraries, from their .note.stapsdt notes (stapsdt.hpp).
// One plugin serves every such provider (DT_PLUGIN_F_ANY_PROVIDER):
// python, postgresql, node, or a program's own from `dtrace -h`.
//
// Probe-name mapping, for a note (provider python, name function__entry)
// in an object a process maps (/proc/PID/maps):
//   -> python<PID>:<object basename>:<function holding the site>:function-entry
// ("__" in a note's name is "-" in DTrace's, as dtrace -h encodes it).
//
// Which processes:
//   python1234      that process (illumos' naming of USDT providers)
//   python*, ""     each process of -p / -c
//   python          every process that maps an object with python's
//                   notes: the objects of all processes are read once
//                   (/proc/*/maps, each object once), and the probe is
//                   placed on the object itself, so it fires in every
//                   process that maps it, later ones too. Reported without
//                   a pid: python:libpython3.11.so.1.0:...
// The module may be named as the pid provider allows (libc, a.out, full
// path: common/user_match.hpp).
//
// Cookie: the file offset of the probe instruction in its object. Several
// sites of one probe in one function (an inlined macro) are one DTrace
// probe; the first site is placed (a dt_bpf_attach_t names one location).
//
// bpf engine (attach): a uprobe at (/proc/PID/root/<object>, cookie), for
// that process or (no pid) for every process; context DT_BPF_CTX_USDT with
// each argument's location from the note's operands; the semaphore, if
// the site has one, as the uprobe's reference counter, so the kernel
// increments it while the probe is placed (the program's is-enabled test
// sees it) and restores it when the probe goes.
//
// kmod engine (kmod table, module dtrace_pid): the kmod engine places the
// uprobe attach() describes in the pid provider's kernel half dtrace_pid.ko
// (core/engine/kmod/uprobes.hpp), which reads the operands and registers
// the semaphore as the uprobe's reference counter too.
//
// Arguments: argN and args[N] are the operands' integer values,
// sign-extended per their size; args[N] is typed by its operand's size
// and sign (int32_t for "-4@%edi", probe_args()), up to args[11] (a note
// has at most 12 operands).
#include "proc_objects.hpp"
#include "stapsdt.hpp"
#include "user_match.hpp"

#include <dtrace/plugin.hpp>

#include <dirent.h>
#include <libelf.h>
#include <signal.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace dt::plugin::usdt {
namespace {

using user::glob_match;
using user::is_glob;
using user::mapped_object;
using user::module_for;
using user::object_path;
using user::read_objects;

std::string field(const char *s)
{
	return s ? s : "";
}

// "python1234" -> ("python", 1234); nullopt without trailing digits.
std::optional<std::pair<std::string, int32_t>> split_pid(const std::string &prov)
{
	size_t end = prov.find_last_not_of("0123456789");
	if (end == std::string::npos || end + 1 == prov.size() || prov.size() - end - 1 > 9)
		return std::nullopt;
	return std::make_pair(prov.substr(0, end + 1), std::stoi(prov.substr(end + 1)));
}

struct usdt_state {
	const dt_plugin_host_t *host;
	// System-wide providers: the objects (host paths) each reported module
	// name came from, from the last scan; several objects may share a
	// file name (/usr/bin/python3.11 and a virtualenv's).
	std::multimap<std::string, std::string> global_objects;
	std::string attach_path; // the last bpf attach()'s target
};

class walk {
public:
	walk(usdt_state &s, const dt_probe_query_t &q, dt_probe_cb cb, void *arg)
		: s_(s), provider_(field(q.provider)), mod_(field(q.mod)), func_(field(q.func)),
		  name_(field(q.name)), cb_(cb), arg_(arg)
	{
	}

	void run()
	{
		if (!provider_.empty() && !is_glob(provider_)) {
			if (auto p = split_pid(provider_)) {
				process(p->second, p->first);
				return;
			}
			system_wide();
			return;
		}
		uint32_t n = DT_ABI_HAS(s_.host, nprocs) ? s_.host->nprocs : 0;
		std::set<int32_t> done;
		for (uint32_t i = 0; i < n && !stopped_; i++)
			if (done.insert(s_.host->procs[i]).second)
				process(s_.host->procs[i], std::nullopt, true);
	}

private:
	usdt_state &s_;
	std::string provider_, mod_, func_, name_;
	dt_probe_cb cb_;
	void *arg_;
	bool stopped_ = false;

	// Report the sites of one object under provider names prov(site).
	template <typename Name>
	void sites(const std::string &path, const std::string &mod, Name prov)
	{
		std::vector<site> v;
		std::string why;
		if (int rc = read_sites(path, v, why); rc < 0) {
			s_.host->log(s_.host, DT_LOG_DEBUG, "usdt: skipping %s: %s", path.c_str(),
				     why.c_str());
			return;
		}
		for (const site &st : v) {
			if (stopped_)
				return;
			std::string p = prov(st), name = probe_name(st.name);
			if (!glob_match(provider_, p.c_str()) ||
			    !glob_match(func_, st.func.c_str()) || !glob_match(name_, name.c_str()))
				continue;
			dt_probe_info_t info = {sizeof(info),	 p.c_str(),    mod.c_str(),
						st.func.c_str(), name.c_str(), st.pc_offset};
			if (cb_(arg_, &info))
				stopped_ = true;
		}
	}

	// The sites of process `pid`; with `only`, of that provider only.
	// `listed`: one of the host's processes, named by no description: one
	// that has exited since (a process started after tracing began, gone
	// before the host noticed) has no probes, and no warning is due.
	void process(int32_t pid, const std::optional<std::string> &only, bool listed = false)
	{
		std::vector<mapped_object> objs;
		if (int rc = read_objects(pid, objs); rc < 0) {
			bool gone = rc == -ENOENT || rc == -ESRCH;
			s_.host->log(s_.host, listed && gone ? DT_LOG_DEBUG : DT_LOG_WARN,
				     "failed to grab pid %d: %s", pid,
				     rc == -ENOENT || rc == -ESRCH ? "No such process"
								   : std::strerror(-rc));
			return;
		}
		std::string suffix = std::to_string(pid);
		for (const mapped_object &o : objs) {
			if (stopped_)
				return;
			auto mod = module_for(mod_, o);
			if (!mod)
				continue;
			sites(object_path(pid, o), *mod, [&](const site &st) {
				return only && st.provider != *only ? std::string()
								    : st.provider + suffix;
			});
		}
	}

	// Every process's objects, each once: the provider named without a pid.
	void system_wide()
	{
		std::set<std::pair<dev_t, ino_t>> seen;
		DIR *d = opendir("/proc");
		if (d == nullptr)
			return;
		while (dirent *e = readdir(d)) {
			if (stopped_)
				break;
			char *end = nullptr;
			long pid = std::strtol(e->d_name, &end, 10);
			if (*end != '\0' || pid <= 0)
				continue;
			std::vector<mapped_object> objs;
			if (read_objects(static_cast<int32_t>(pid), objs) < 0)
				continue;
			for (const mapped_object &o : objs) {
				if (stopped_ || !seen.insert({o.dev, o.ino}).second)
					continue;
				auto mod = module_for(mod_, o);
				if (!mod)
					continue;
				std::string path = object_path(static_cast<int32_t>(pid), o);
				bool known = false;
				auto [lo, hi] = s_.global_objects.equal_range(*mod);
				for (auto it = lo; it != hi && !known; ++it)
					known = it->second == path;
				if (!known)
					s_.global_objects.emplace(*mod, path);
				sites(path, *mod, [](const site &st) { return st.provider; });
			}
		}
		closedir(d);
	}
};

// The probe's site: the object it was reported from (a path to open)
// that has a site at the probe's cookie. False if none has any more.
bool site_of(usdt_state &s, const dt_probe_info_t *p, int32_t &pid, std::string &path, site &out)
{
	std::string prov = field(p->provider), mod = field(p->mod);
	std::vector<std::string> candidates;
	pid = -1;
	if (auto pp = split_pid(prov)) {
		pid = pp->second;
		std::vector<mapped_object> objs;
		if (int rc = read_objects(pid, objs); rc < 0) {
			// Gone since its probes were listed (it exited while grabbed).
			s.host->log(s.host, DT_LOG_WARN, "failed to grab pid %d: %s", pid,
				    rc == -ENOENT || rc == -ESRCH ? "No such process"
								  : std::strerror(-rc));
			return false;
		}
		for (const mapped_object &o : objs)
			if (auto m = module_for(mod, o); m && *m == mod)
				candidates.push_back(object_path(pid, o));
	} else {
		auto [b, e] = s.global_objects.equal_range(mod);
		for (auto it = b; it != e; ++it)
			candidates.push_back(it->second);
	}
	for (const std::string &c : candidates) {
		std::vector<site> v;
		std::string why;
		if (read_sites(c, v, why) < 0)
			continue;
		for (site &x : v)
			if (x.pc_offset == p->cookie && probe_name(x.name) == field(p->name)) {
				path = c;
				out = std::move(x);
				return true;
			}
	}
	return false;
}

int bpf_attach(usdt_state &s, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	int32_t pid = -1;
	std::string path, why;
	site found;
	if (!site_of(s, p, pid, path, found)) {
		if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH)
			return -ESRCH; // site_of() said so
		s.host->log(s.host, DT_LOG_WARN,
			    "usdt: %s:%s:%s:%s: no object of that name has the probe any more",
			    p->provider, p->mod, p->func, p->name);
		return -ENOENT;
	}
	const site *st = &found;
	std::vector<dt_usdt_arg_t> args;
	if (!parse_operands(st->operands, args, why))
		s.host->log(s.host, DT_LOG_WARN,
			    "usdt: %s:::%s: argument %zu cannot be read (%s); it and those after "
			    "it are 0",
			    p->provider, p->name, args.size(), why.c_str());
	s.attach_path = path;
	dt_bpf_attach_t a = dt::sdk::bpf_attach_desc(DT_BPF_ATTACH_UPROBE, s.attach_path.c_str());
	a.offset = st->pc_offset;
	a.pid = pid;
	a.ctx = DT_BPF_CTX_USDT;
	a.nusdt_args = static_cast<uint32_t>(args.size());
	for (size_t i = 0; i < args.size(); i++)
		if (i < 10)
			a.usdt_args[i] = args[i];
		else
			a.usdt_args_hi[i - 10] = args[i];
	a.ref_ctr_offset = st->sem_offset;
	dt::sdk::give_attach(out, a);
	return 0;
}

int usdt_bpf_attach(void *state, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	auto *s = static_cast<usdt_state *>(state);
	return dt::sdk::guard([&] { return bpf_attach(*s, probe, out); });
}

// args[i]: the integer type of the site's operand i, of its size and
// sign ("-4@%edi": int32_t), as a DTrace provider definition would type
// it; the site's operands are all a stapsdt note says.
int probe_args(usdt_state &s, const dt_probe_info_t *p, dt_arg_cb cb, void *arg)
{
	int32_t pid = -1;
	std::string path, why;
	site found;
	if (!site_of(s, p, pid, path, found))
		return 0; // untyped, as before: attach() says what is wrong
	std::vector<dt_usdt_arg_t> args;
	(void)parse_operands(found.operands, args, why); // those it could read
	for (size_t i = 0; i < args.size(); i++) {
		int n = args[i].size < 0 ? -args[i].size : args[i].size;
		std::string type =
			(args[i].size < 0 ? "int" : "uint") + std::to_string(8 * n) + "_t";
		dt_arg_desc_t d = {sizeof(d),
				   static_cast<int32_t>(i),
				   static_cast<int32_t>(i),
				   type.c_str(),
				   nullptr,
				   nullptr};
		if (cb(arg, &d))
			break;
	}
	return 0;
}

int usdt_probe_args(void *state, const dt_probe_info_t *probe, dt_arg_cb cb, void *arg)
{
	auto *s = static_cast<usdt_state *>(state);
	return dt::sdk::guard([&] { return probe_args(*s, probe, cb, arg); });
}

// -F indents at function-entry and outdents at function-return, as
// illumos does for any probe so named (dt::sdk::flow_of_name()).
int usdt_fires(void *, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	dt_probe_fire_t f =
		dt::sdk::fire_desc(DT_FIRE_UPROBE, DT_ENGINE_BPF | DT_ENGINE_KMOD, p->func);
	f.flow = dt::sdk::flow_of_name(field(p->name));
	dt::sdk::give_fire(out, f);
	return 0;
}

const dt_plugin_kmod_ops_t k_usdt_kmod_ops = dt::sdk::kernel_module("dtrace_pid");

const dt_plugin_bpf_ops_t k_usdt_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = usdt_bpf_attach,
};

int usdt_init(const dt_plugin_host_t *host, void **state)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		host->log(host, DT_LOG_ERROR, "usdt provider: libelf is too old: %s",
			  elf_errmsg(-1));
		return -ENOTSUP;
	}
	auto *s = new (std::nothrow) usdt_state{host, {}, {}};
	if (s == nullptr)
		return -ENOMEM;
	*state = s;
	return 0;
}

void usdt_fini(void *state)
{
	delete static_cast<usdt_state *>(state);
}

int usdt_probes(void *state, const dt_probe_query_t *query, dt_probe_cb cb, void *arg)
{
	auto *s = static_cast<usdt_state *>(state);
	return dt::sdk::guard([&] {
		walk(*s, *query, cb, arg).run();
		return 0;
	});
}

// illumos' USDT (fasttrap's pid/USDT providers): provider and name
// evolving, module and function private.
const dt_plugin_ops_t k_usdt_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = "usdt",
	.description = "statically defined user probes (stapsdt notes, dtrace -h)",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA}},
	.priv = DT_PRIV_PROC | DT_PRIV_OWNER,
	.flags = DT_PLUGIN_F_ANY_PROVIDER,
	.init = usdt_init,
	.fini = usdt_fini,
	.probes = usdt_probes,
	.probe_args = usdt_probe_args,
	.kmod = &k_usdt_kmod_ops,
	.bpf = &k_usdt_bpf_ops,
	.fires = usdt_fires,
};

} // namespace
} // namespace dt::plugin::usdt

// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): any probe name.
DT_PLUGIN_NOTE(DT_PLUGIN_F_ANY_PROVIDER, "*");

DT_PLUGIN_DEFINE(dt::plugin::usdt::k_usdt_ops)
