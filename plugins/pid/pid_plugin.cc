// SPDX-License-Identifier: MIT
// The pid provider (dt_pid.so): function-boundary and instruction probes
// in user processes, one provider per process (illumos fasttrap's pid).
//
// Probe-name mapping:
//   /proc/PID/maps object .../libc.so.6, function symbol malloc
//     -> pidPID:libc.so.6:malloc:entry   the function's first instruction
//     -> pidPID:libc.so.6:malloc:return  its returns (a uretprobe on entry)
//     -> pidPID:libc.so.6:malloc:<hex>   the instruction at that offset from
//                                        the function start: 0, 1, 4, 1c ...
//   The module is the object's basename. A literal module naming it the
//   classic way -- `libc` or `libc.so` for libc.so.6, `a.out` for the
//   executable, the object's full path -- is reported as written, as
//   illumos dt_pid does (common/user_match.hpp, module_for()).
//
// Which processes: provider `pid<digits>` is that process, grabbed or not
// (DTrace allows `pid1234:::`); a glob or "" is each process of -p / -c
// (host->procs) whose pid<PID> it matches. A process that does not exist
// is a warning and no probes.
//
// Which functions: .symtab, else .dynsym, STT_FUNC and STT_GNU_IFUNC with
// a size (elf_functions.hpp). Objects are opened only when the module
// could match, and a plain function name is compared before anything is
// built for a symbol.
//
// A function whose first instruction uprobes refuse (a `lock` or segment
// prefix: pthread_spin_lock; insn_offsets.hpp placeable()) has no entry or
// return probe, as fasttrap creates none it cannot place: a glob over a
// whole library then attaches rather than failing on it.
//
// Offset probes are reported only when the query names a function or a
// module (func or mod non-empty) and its probe name is "", a glob or hex
// digits: so `pid123::malloc:` lists entry, return and every instruction
// offset, and `pid123:a.out::` every instruction of the executable, as
// illumos does, while `pid123:::` and `dtrace -l -p 123` with no
// description list entry and return only (every offset of every library
// would be millions).
//
// Descriptions refused, with illumos dt_pid.c's tags and words (through
// the host's desc_error, so they are compile errors of the description):
//   pid0:::entry               D_PROC_BADPID  'pid0' does not contain a valid pid
//   pid1:a.out:nosuch:entry    D_PROC_FUNC    failed to lookup 'nosuch' in module 'a.out'
//   pid1:libc:-:800            D_PROC_LIB     only the a.out module is valid with the '-' function
//   pid1:a.out:main:beginning  D_PROC_NAME    'beginning' is an invalid probe name
//   pid1::_exit:100            D_PROC_OFF     offset 0x100 outside of function '_exit'
//   pid1::main:3 (mid-insn)    D_PROC_ALIGN   offset 0x3 is not aligned on an instruction
// A missing module, or a function absent from modules named by a glob, is
// no error (the description then matches nothing: D_PDESC_ZERO).
//
// Cookie: the file offset, in the object file, of the instruction the
// probe is placed on: the function's first byte for entry and return,
// that plus the offset for an offset probe. An engine resolves (pid,
// module) to the object's path as here and sets a uprobe at
// (/proc/PID/root/<path>, cookie) -- a uretprobe for `return`. The path
// is the process's own, through its root (a container's files: docs/
// containers.md), or /proc/PID/map_files/<range> for a file deleted or
// replaced since it was mapped (proc_objects.hpp, object_path()).
//
// bpf engine (attach): a uprobe (entry and offsets, context REGS) or a
// uretprobe (return, context REGS_RETURN) at (/proc/PID/root/<path>,
// cookie) for that process only, the object found again from the
// probe's module as probes() named it.
//
// kmod engine (kmod table, module dtrace_pid): the kmod engine places the
// uprobe or uretprobe attach() describes in the kernel half dtrace_pid.ko
// (plugins/pid/kernel; core/engine/kmod/uprobes.hpp), which reads the
// arguments as the bpf engine's contexts do.
//
// fires: DT_FIRE_UPROBE in the function (target: its name); entry and
// return have that flow (-F: -> and <-), offset probes none. The bpf and
// kmod engines run them.
//
// Arguments: pid probes are untyped (args[N] are the function's integer
// arguments; `dtrace -lv` prints "None"), so probe_args is NULL.
#include "elf_functions.hpp"
#include "insn_offsets.hpp"
#include "proc_objects.hpp"
#include "user_match.hpp"

#include <dtrace/plugin.hpp>

#include <libelf.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace dt::plugin::pid {
using namespace dt::plugin::user;
namespace {

// A query field; NULL (which the ABI does not allow) is read as "any".
std::string field(const char *s)
{
	return s ? s : "";
}

struct pid_state {
	const dt_plugin_host_t *host;
	std::string attach_path; // the last bpf attach()'s target
};

// One probes() call: the query, the callback, and what the walk needs
// along the way.
class walk {
public:
	walk(const dt_plugin_host_t *host, const dt_probe_query_t &q, dt_probe_cb cb, void *arg)
		: host_(host), provider_(field(q.provider)), mod_(field(q.mod)),
		  func_(field(q.func)), name_(field(q.name)), cb_(cb), arg_(arg),
		  offsets_(wants_offsets(mod_, func_, name_))
	{
	}

	// 0, or -EINVAL when the description was refused (refuse()).
	int run()
	{
		if (auto pid = literal_pid(provider_)) {
			literal_ = true;
			if (*pid <= 0) // pid0, or more digits than a pid has
				refuse("D_PROC_BADPID", "'%s' does not contain a valid pid",
				       provider_.c_str());
			else
				process(*pid, provider_.substr(3));
			return refused_ ? -EINVAL : 0;
		}
		if (!provider_.empty() && !is_glob(provider_))
			return 0; // "pid", "pidx": no process
		std::vector<int32_t> done;
		uint32_t n = DT_ABI_HAS(host_, nprocs) ? host_->nprocs : 0;
		for (uint32_t i = 0; i < n && !stopped_; i++) {
			int32_t pid = host_->procs[i];
			if (std::find(done.begin(), done.end(), pid) != done.end())
				continue;
			done.push_back(pid);
			if (glob_match(provider_, ("pid" + std::to_string(pid)).c_str()))
				process(pid, std::to_string(pid));
		}
		return refused_ ? -EINVAL : 0;
	}

private:
	const dt_plugin_host_t *host_;
	std::string provider_, mod_, func_, name_;
	dt_probe_cb cb_;
	void *arg_;
	bool offsets_;
	bool stopped_ = false;
	bool refused_ = false;
	// The provider names one process (pid123): only then is a
	// description refused, as illumos calls dt_pid_create_probes() only
	// for such a provider; a glob (p*d123, "") just matches less.
	bool literal_ = false;
	insn_decoder decoder_;

	// Refuse the description with DTrace's diagnostic (illumos
	// dt_pid.c's dt_pid_error(): its tags and words), and stop.
	void refuse(const char *tag, const char *fmt, ...) __attribute__((format(printf, 3, 4)))
	{
		char buf[512];
		va_list ap;
		va_start(ap, fmt);
		std::vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		if (DT_ABI_HAS(host_, desc_error) && host_->desc_error != nullptr)
			host_->desc_error(host_, tag, "%s", buf);
		else
			host_->log(host_, DT_LOG_ERROR, "%s", buf);
		refused_ = stopped_ = true;
	}

	bool emit(const std::string &prov, const std::string &mod, const char *func,
		  const std::string &name, uint64_t cookie)
	{
		dt_probe_info_t p = {sizeof(p), prov.c_str(), mod.c_str(),
				     func,	name.c_str(), cookie};
		if (cb_(arg_, &p))
			stopped_ = true;
		return stopped_;
	}

	// Process `pid` (-1: a number too large for one); `written` is its
	// number as the user wrote it, for the provider name and messages.
	void process(int64_t pid, const std::string &written)
	{
		std::vector<mapped_object> objs;
		int rc = pid > 0 ? read_objects(static_cast<int32_t>(pid), objs) : -ESRCH;
		if (rc == -ENOENT || rc == -ESRCH) {
			host_->log(host_, DT_LOG_WARN, "failed to grab pid %s: No such process",
				   written.c_str());
			return;
		}
		if (rc < 0) {
			host_->log(host_, DT_LOG_WARN, "failed to grab pid %s: %s", written.c_str(),
				   std::strerror(-rc));
			return;
		}
		std::string prov = "pid" + written;
		if (func_ == "-") {
			dash(objs);
			return;
		}
		for (const auto &o : objs) {
			if (stopped_)
				return;
			if (auto mod = module_for(mod_, o))
				object(static_cast<int32_t>(pid), prov, o, *mod);
		}
	}

	// The '-' function: the probe name is an address in the executable
	// (illumos dt_pid_create_pid_probes()). Its errors are illumos'; the
	// probes themselves are not offered yet, so a valid one matches
	// nothing.
	void dash(const std::vector<mapped_object> &objs)
	{
		if (!literal_)
			return;
		bool aout = mod_.empty();
		if (!is_glob(mod_))
			for (const auto &o : objs)
				if (o.is_main && module_for(mod_, o))
					aout = true;
		if (!aout)
			refuse("D_PROC_LIB",
			       "only the a.out module is valid with the '-' function");
		else if (name_.empty() || is_glob(name_))
			refuse("D_PROC_NAME",
			       "only individual addresses may be specified with the '-' function");
	}

	// The probe name against function `fn`, as illumos dt_pid_per_sym()
	// judges it: entry, return, a glob, or an offset inside the function
	// on an instruction boundary. False (and refused) otherwise.
	bool name_fits(const elf_function &fn, bool decode)
	{
		if (!literal_)
			return true; // a provider glob: illumos creates no probes for it
		if (name_.empty() || is_glob(name_) || name_ == "entry" || name_ == "return")
			return true;
		if (!is_offset_name(name_)) {
			refuse("D_PROC_NAME", "'%s' is an invalid probe name", name_.c_str());
			return false;
		}
		unsigned long long off = std::strtoull(name_.c_str(), nullptr, 16);
		if (off >= fn.size) {
			refuse("D_PROC_OFF", "offset 0x%llx outside of function '%s'", off,
			       fn.name);
			return false;
		}
		if (!decode)
			return true;
		bool complete = false;
		std::vector<uint64_t> refused;
		auto offs = decoder_.offsets(fn.bytes, fn.size, complete, &refused);
		offs.insert(offs.end(), refused.begin(), refused.end());
		std::sort(offs.begin(), offs.end());
		bool decoded_past = !offs.empty() && offs.back() >= off;
		if ((complete || decoded_past) &&
		    !std::binary_search(offs.begin(), offs.end(), off)) {
			refuse("D_PROC_ALIGN", "offset 0x%llx is not aligned on an instruction",
			       off);
			return false;
		}
		return true;
	}

	void object(int32_t pid, const std::string &prov, const mapped_object &o,
		    const std::string &mod)
	{
		elf_object elf;
		std::string why;
		std::string path = object_path(pid, o);
		if (elf.open(path, why) < 0) {
			host_->log(host_, DT_LOG_DEBUG, "pid provider: skipping %s: %s",
				   path.c_str(), why.c_str());
			return;
		}
		bool can_decode = decoder_.open(elf.machine(), why) >= 0;
		bool decode = offsets_ && can_decode;
		if (offsets_ && !can_decode)
			host_->log(host_, DT_LOG_DEBUG, "pid provider: no offset probes in %s: %s",
				   path.c_str(), why.c_str());
		bool literal = !func_.empty() && !is_glob(func_);
		auto want = [&](const char *name) {
			return literal ? func_ == name : glob_match(func_, name);
		};
		bool want_entry = glob_match(name_, "entry");
		bool want_return = glob_match(name_, "return");
		bool found = false;
		elf.for_each_function(want, [&](const elf_function &fn) {
			found = true;
			if (!name_fits(fn, decode))
				return true;
			// Entry and return are uprobes on the first instruction:
			// none where the kernel would refuse it (a `lock`-prefixed
			// one: pthread_spin_lock), as fasttrap creates no probe it
			// cannot place.
			bool placeable = !(want_entry || want_return) || !can_decode ||
					 decoder_.placeable(fn.bytes, fn.size);
			if (!placeable)
				host_->log(host_, literal ? DT_LOG_WARN : DT_LOG_DEBUG,
					   "pid provider: no entry or return probe for %s`%s: "
					   "uprobes cannot be placed on its first instruction",
					   o.basename.c_str(), fn.name);
			if (placeable && want_entry &&
			    emit(prov, mod, fn.name, "entry", fn.file_offset))
				return true;
			if (placeable && want_return &&
			    emit(prov, mod, fn.name, "return", fn.file_offset))
				return true;
			if (!decode)
				return false;
			bool complete = false;
			for (uint64_t off : decoder_.offsets(fn.bytes, fn.size, complete))
				if (emit(prov, mod, fn.name, offset_name(off),
					 fn.file_offset + off))
					return true;
			if (!complete)
				host_->log(host_, DT_LOG_DEBUG,
					   "pid provider: %s`%s: stopped at a byte sequence "
					   "that is not an instruction",
					   o.basename.c_str(), fn.name);
			return false;
		});
		// A function named in a module named: the module must have it
		// (illumos dt_pid_per_mod(); a module glob looks on quietly).
		if (!found && literal_ && literal && !mod_.empty() && !is_glob(mod_) && !stopped_)
			refuse("D_PROC_FUNC", "failed to lookup '%s' in module '%s'", func_.c_str(),
			       mod_.c_str());
	}
};

int bpf_attach(pid_state &s, const dt_probe_info_t *p, dt_bpf_attach_t *out)
{
	auto pid = literal_pid(field(p->provider));
	if (!pid || *pid <= 0 || *pid > INT32_MAX)
		return -ENOENT;
	std::vector<mapped_object> objs;
	if (int rc = read_objects(static_cast<int32_t>(*pid), objs); rc < 0) {
		// Gone since its probes were listed (it exited while grabbed).
		s.host->log(s.host, DT_LOG_WARN, "failed to grab pid %lld: %s",
			    static_cast<long long>(*pid),
			    rc == -ENOENT || rc == -ESRCH ? "No such process" : std::strerror(-rc));
		return rc == -ENOENT ? -ESRCH : rc;
	}
	std::string mod = field(p->mod);
	const mapped_object *found = nullptr;
	for (const auto &o : objs)
		if (auto m = module_for(mod, o); m && *m == mod) {
			found = &o;
			break;
		}
	if (found == nullptr) {
		s.host->log(s.host, DT_LOG_WARN, "pid provider: process %lld has no object %s",
			    static_cast<long long>(*pid), mod.c_str());
		return -ENOENT;
	}
	bool ret = std::strcmp(p->name, "return") == 0;
	s.attach_path = object_path(static_cast<int32_t>(*pid), *found);
	dt_bpf_attach_t a = dt::sdk::bpf_attach_desc(
		ret ? DT_BPF_ATTACH_URETPROBE : DT_BPF_ATTACH_UPROBE, s.attach_path.c_str());
	a.offset = p->cookie;
	a.pid = static_cast<int32_t>(*pid);
	// entry: the function's first instruction (ustack() gets the caller
	// from the stack pointer); an offset probe is past it.
	a.ctx = ret				     ? DT_BPF_CTX_REGS_RETURN
		: std::strcmp(p->name, "entry") == 0 ? DT_BPF_CTX_REGS
						     : DT_BPF_CTX_REGS_INSN;
	dt::sdk::give_attach(out, a);
	return 0;
}

int pid_bpf_attach(void *state, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	auto *s = static_cast<pid_state *>(state);
	return dt::sdk::guard([&] { return bpf_attach(*s, probe, out); });
}

int pid_fires(void *, const dt_probe_info_t *p, dt_probe_fire_t *out)
{
	// The probe's own func outlives the call: the host's string.
	dt_probe_fire_t f =
		dt::sdk::fire_desc(DT_FIRE_UPROBE, DT_ENGINE_BPF | DT_ENGINE_KMOD, p->func);
	if (std::strcmp(p->name, "entry") == 0)
		f.flow = DT_FLOW_ENTRY;
	else if (std::strcmp(p->name, "return") == 0)
		f.flow = DT_FLOW_RETURN;
	dt::sdk::give_fire(out, f);
	return 0;
}

const dt_plugin_kmod_ops_t k_pid_kmod_ops = dt::sdk::kernel_module("dtrace_pid");

const dt_plugin_bpf_ops_t k_pid_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = pid_bpf_attach,
};

int pid_init(const dt_plugin_host_t *host, void **state)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		host->log(host, DT_LOG_ERROR, "pid provider: libelf is too old: %s",
			  elf_errmsg(-1));
		return -ENOTSUP;
	}
	auto *s = new (std::nothrow) pid_state{host, {}};
	if (s == nullptr)
		return -ENOMEM;
	*state = s;
	return 0;
}

void pid_fini(void *state)
{
	delete static_cast<pid_state *>(state);
}

int pid_probes(void *state, const dt_probe_query_t *query, dt_probe_cb cb, void *arg)
{
	auto *s = static_cast<pid_state *>(state);
	return dt::sdk::guard([&] { return walk(s->host, *query, cb, arg).run(); });
}

// illumos fasttrap's pid provider attributes (fasttrap.c, pid_attr).
const dt_plugin_ops_t k_pid_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = "pid",
	.description = "user function entry, return and instruction probes per process",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN}},
	.priv = DT_PRIV_PROC | DT_PRIV_OWNER,
	.flags = DT_PLUGIN_F_PER_PROCESS,
	.init = pid_init,
	.fini = pid_fini,
	.probes = pid_probes,
	.probe_args = nullptr,
	.kmod = &k_pid_kmod_ops,
	.bpf = &k_pid_bpf_ops,
	.fires = pid_fires,
};

} // namespace
} // namespace dt::plugin::pid

// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): entry, return and instruction offsets in lower-case hex.
DT_PLUGIN_NOTE(DT_PLUGIN_F_PER_PROCESS, "entry return [0-9a-f]*");

DT_PLUGIN_DEFINE(dt::plugin::pid::k_pid_ops)
