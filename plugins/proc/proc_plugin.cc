// SPDX-License-Identifier: MIT
// The proc provider (dt_proc.so): process and thread life-cycle probes,
// described from a table. The kernel events each probe will be built on
// (after Oracle dtrace-utils' dt_prov_proc.c; the engines attach them
// later) give the probe-name mapping:
//
//   rawtp sched_process_fork             -> proc:vmlinux::create, lwp-create
//   syscall execve/execveat entry        -> proc:vmlinux::exec
//   syscall execve/execveat return == 0  -> proc:vmlinux::exec-success
//   syscall execve/execveat return != 0  -> proc:vmlinux::exec-failure
//   fbt taskstats_exit entry             -> proc:vmlinux::exit, lwp-exit
//   fbt schedule_tail return             -> proc:vmlinux::start, lwp-start
//   fbt complete_signal entry            -> proc:vmlinux::signal-send
//   tracepoint signal:signal_deliver     -> proc:vmlinux::signal-handle
//   fbt do_sigtimedwait return           -> proc:vmlinux::signal-clear
//
// Probes are listed (and so numbered) in the order of k_probes below:
// the process's life (create, exec*, exit, start), then its threads'
// (lwp-*), then signals. The cookie is the probe's index in k_probes.
//
// Arguments are illumos' (usr/src/uts/common/dtrace/sdt_subr.c,
// sdt_args[]) with the native types of Oracle's Linux port: a native
// struct task_struct * is seen through the psinfo_t/lwpsinfo_t
// translators, and lwp-create and signal-send build both args[0] and
// args[1] from the same native argument (mapping 0), as illumos does.
//
// bpf engine (attach): raw tracepoints, with the native arguments above
// taken from the tracepoint's TP_PROTO (include/trace/events/*.h) by an
// argument map (arg<i> = raw argument argmap[i], -1: 0):
//
//   create        task_newtask(task, clone_flags)      arg0 = task;
//                 fires when (clone_flags >> 16) & 1 (CLONE_THREAD) is 0
//   lwp-create    the same, CLONE_THREAD set
//   exec          sys_enter, filtered by __NR_execve    arg0 = the path
//   exec-success  sched_process_exec(p, old_pid, bprm)  no arguments
//   exit          sched_process_exit(p, group_dead)    group_dead == 1;
//                 arg0 (the CLD_* reason) is 0: it needs p->exit_code
//   lwp-exit      the same, group_dead == 0 (other threads remain)
//   signal-send   signal_generate(sig, info, task, group, result)
//                                                      arg0 = task, arg1 = sig
//   signal-handle signal_deliver(sig, info, ka)        arg0 = sig, arg1 = info;
//                 arg2 (the handler) is 0: it needs ka->sa.sa_handler
//
// The arity comes from the kernel's BTF (raw_tracepoints.hpp): a kernel
// whose sched_process_exit has no group_dead gets exit unfiltered (every
// thread's exit) and no lwp-exit.
//
// task_newtask rather than sched_process_fork for create, because its
// clone flags tell a process from a thread without reading the task.
// The rest need a test the attach description cannot express (the
// return value of execve for exec-failure, of rt_sigtimedwait for
// signal-clear) or a function probe (schedule_tail for start and
// lwp-start): -ENOTSUP, saying so.
#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

#include <asm/unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>

namespace dt::plugin::proc {
namespace {

using dt::sdk::table_arg;
using dt::sdk::table_probe;

constexpr table_probe k_probes[] = {
	{"create", {{{0, "struct task_struct *", "psinfo_t *"}}}},
	{"exec", {{{0, "char *", "string"}}}},
	{"exec-success", {}},
	{"exec-failure", {{{0, "int", nullptr}}}},
	{"exit", {{{0, "int", nullptr}}}},
	{"start", {}},
	{"lwp-create",
	 {{{0, "struct task_struct *", "lwpsinfo_t *"},
	   {0, "struct task_struct *", "psinfo_t *"}}}},
	{"lwp-start", {}},
	{"lwp-exit", {}},
	{"signal-send",
	 {{{0, "struct task_struct *", "lwpsinfo_t *"},
	   {0, "struct task_struct *", "psinfo_t *"},
	   {1, "int", nullptr}}}},
	{"signal-handle",
	 {{{0, "int", nullptr},
	   {1, "siginfo_t *", nullptr},
	   {2, "void (*)(void)", nullptr}}}},
	{"signal-clear", {{{0, "int", nullptr}}}},
};

constexpr const char *k_provider = "proc";
constexpr const char *k_module = "vmlinux";

// Twelve constant entries: reporting them all is cheaper than reading
// the query, and the host filters them against it.
int proc_probes(void *, const dt_probe_query_t *, dt_probe_cb cb, void *arg)
{
	return dt::sdk::guard(
		[&] { return dt::sdk::report_table(k_probes, k_provider, k_module, "", cb, arg); });
}

int proc_probe_args(void *, const dt_probe_info_t *probe, dt_arg_cb cb, void *arg)
{
	return dt::sdk::guard(
		[&] { return dt::sdk::report_table_args(k_probes, probe, cb, arg); });
}

// How each probe of k_probes (same order) is attached by the bpf engine;
// a NULL target means it cannot be (`why` says what it needs).
struct bpf_source {
	const char *target;
	uint32_t nargs;		       // TP_PROTO arity, when BTF cannot say
	std::array<int32_t, 3> argmap; // arg0..arg2; the rest are 0
	int32_t filter_arg = -1;       // -1: no filter (see plugin.h ABI 1.2)
	uint32_t filter_shift = 0;
	uint64_t filter_mask = 0;
	int64_t filter = 0;
	const char *why = nullptr;
	// Without filter_arg (an older kernel's tracepoint): fire unfiltered
	// rather than refuse.
	bool unfiltered_fallback = false;
};

constexpr uint32_t k_clone_thread_shift = 16; // CLONE_THREAD 0x00010000

constexpr bpf_source k_bpf[] = {
	{"task_newtask", 2, {0, -1, -1}, 1, k_clone_thread_shift, 1, 0},
	{"sys_enter", 2, {0, -1, -1}}, // exec: SYS_ENTER, filtered by number
	{"sched_process_exec", 3, {-1, -1, -1}},
	{nullptr, 0, {}, -1, 0, 0, 0,
	 "a test of execve's return value, which the bpf engine's attach "
	 "description cannot express"},
	{"sched_process_exit", 2, {-1, -1, -1}, 1, 0, 1, 1, nullptr, true},
	{nullptr, 0, {}, -1, 0, 0, 0,
	 "a kprobe or BPF trampoline on schedule_tail; there is no tracepoint "
	 "where a new process first runs"},
	{"task_newtask", 2, {0, -1, -1}, 1, k_clone_thread_shift, 1, 1},
	{nullptr, 0, {}, -1, 0, 0, 0,
	 "a kprobe or BPF trampoline on schedule_tail; there is no tracepoint "
	 "where a new thread first runs"},
	{"sched_process_exit", 2, {-1, -1, -1}, 1, 0, 1, 0},
	{"signal_generate", 5, {2, 0, -1}},
	{"signal_deliver", 3, {0, 1, -1}},
	{nullptr, 0, {}, -1, 0, 0, 0,
	 "a test of rt_sigtimedwait's return value, which the bpf engine's "
	 "attach description cannot express"},
};
static_assert(std::size(k_bpf) == std::size(k_probes));

struct proc_state {
	const dt_plugin_host_t *host;
	dt::plugin::raw_tracepoints tracepoints;
};

int bpf_attach(proc_state &s, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	uint64_t i = probe->cookie;
	if (i >= std::size(k_probes) || std::strcmp(k_probes[i].name, probe->name) != 0)
		return -ENOENT;
	const bpf_source &b = k_bpf[i];
	if (b.target == nullptr) {
		s.host->log(s.host, DT_LOG_WARN, "proc:::%s needs %s", probe->name, b.why);
		return -ENOTSUP;
	}
	dt_bpf_attach_t a = dt::sdk::bpf_attach_desc(DT_BPF_ATTACH_RAW_TRACEPOINT, b.target);
	std::optional<int> arity = s.tracepoints.arity(b.target);
	if (arity && *arity < 0) {
		s.host->log(s.host, DT_LOG_WARN,
			    "proc:::%s needs the %s tracepoint, which this kernel does not have",
			    probe->name, b.target);
		return -ENOTSUP;
	}
	a.nargs = arity ? static_cast<uint32_t>(*arity) : b.nargs;
	if (std::strcmp(b.target, "sys_enter") == 0) {
		a.ctx = DT_BPF_CTX_SYS_ENTER;
		a.filter = __NR_execve;
		a.has_filter = 1;
		dt::sdk::give_attach(out, a);
		return 0;
	}
	a.ctx = DT_BPF_CTX_RAW;
	for (int32_t &m : a.argmap)
		m = -1;
	for (size_t k = 0; k < b.argmap.size(); k++)
		if (b.argmap[k] < static_cast<int32_t>(a.nargs))
			a.argmap[k] = b.argmap[k];
	a.has_argmap = 1;
	if (b.filter_arg >= static_cast<int32_t>(a.nargs)) {
		if (!b.unfiltered_fallback) {
			s.host->log(s.host, DT_LOG_WARN,
				    "proc:::%s needs argument %d of the %s tracepoint, which "
				    "this kernel does not pass",
				    probe->name, b.filter_arg, b.target);
			return -ENOTSUP;
		}
		s.host->log(s.host, DT_LOG_DEBUG,
			    "proc:::%s fires for every thread's exit: this kernel's %s "
			    "does not say whether the thread was the last",
			    probe->name, b.target);
	} else if (b.filter_arg >= 0) {
		a.has_filter = 1;
		a.filter = b.filter;
		a.has_filter_arg = 1;
		a.filter_arg = b.filter_arg;
		a.filter_shift = b.filter_shift;
		a.filter_mask = b.filter_mask;
	}
	dt::sdk::give_attach(out, a);
	return 0;
}

int proc_bpf_attach(void *state, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	return dt::sdk::guard(
		[&] { return bpf_attach(*static_cast<proc_state *>(state), probe, out); });
}

int proc_init(const dt_plugin_host_t *host, void **state)
{
	return dt::sdk::guard([&] {
		*state = new proc_state{host, {}};
		return 0;
	});
}

void proc_fini(void *state)
{
	delete static_cast<proc_state *>(state);
}

const dt_plugin_bpf_ops_t k_proc_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = proc_bpf_attach,
};

// kmod engine: the kernel half, plugins/proc/kernel (dtrace_proc.ko). It
// has every probe of k_probes but start and lwp-start (no tracepoint where
// a new task first runs), with the same native arguments.
const dt_plugin_kmod_ops_t k_proc_kmod_ops = {
	.sz = sizeof(dt_plugin_kmod_ops_t),
	.module = "dtrace_proc",
	.kernel_provider = nullptr,
};

// illumos sdt.c stab_attr for proc (the Guide's "proc Stability").
const dt_plugin_ops_t k_proc_ops = {
	.sz = sizeof(dt_plugin_ops_t),
	.abi_major = DT_PLUGIN_ABI_MAJOR,
	.abi_minor = DT_PLUGIN_ABI_MINOR,
	.name = k_provider,
	.description = "process and thread creation, exec, exit and signals",
	.attr = {{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_PRIVATE, DT_STABILITY_PRIVATE, DT_CLASS_UNKNOWN},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA},
		 {DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_ISA}},
	.priv = DT_PRIV_USER,
	.flags = 0,
	.init = proc_init,
	.fini = proc_fini,
	.probes = proc_probes,
	.probe_args = proc_probe_args,
	.kmod = &k_proc_kmod_ops,
	.bpf = &k_proc_bpf_ops,
};

} // namespace
} // namespace dt::plugin::proc

extern "C" {
DT_PLUGIN_DEFINE(dt::plugin::proc::k_proc_ops)
}
