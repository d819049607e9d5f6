// SPDX-License-Identifier: MIT
// The proc provider (dt_proc.so): process and thread life-cycle probes
// (illumos sdt proc probes, the Dynamic Tracing Guide's "proc Provider"),
// a tracepoint-backed provider made of one table, k_probes below: each
// row is the probe-name mapping (raw tracepoint -> proc:vmlinux::<name>),
// its argument map and filter for the bpf engine, its typed arguments,
// and whether the kernel half (plugins/proc/kernel/dtrace_proc.c, which
// cannot share a C++ table and keeps its own in C) has it. The rows'
// order is the probes' (and so their numbering): the process's life
// (create, exec*, exit, start), then its threads' (lwp-*), then signals
// (signal-discard last, added after the others).
// The cookie is the row's index. dt::sdk::tracepoint_ops (dtrace/plugin.hpp)
// makes the ops of the table.
//
// Arguments are illumos' (usr/src/uts/common/dtrace/sdt_subr.c,
// sdt_args[]) with the native types of Oracle's Linux port: a native
// struct task_struct * is seen through the psinfo_t/lwpsinfo_t
// translators, and lwp-create and signal-send build both args[0] and
// args[1] from the same native argument (mapping 0), as illumos does. The
// argument maps take them from the tracepoint's TP_PROTO
// (include/trace/events/*.h).
//
// The arity of each tracepoint comes from the kernel's BTF
// (raw_tracepoints.hpp): a kernel whose sched_process_exit has no
// group_dead gets exit unfiltered (every thread's exit) and no lwp-exit.
//
// Rows without an event need a test the bpf engine's attach description
// cannot express (the return value of execve for exec-failure, of
// rt_sigtimedwait for signal-clear) or a function probe (schedule_tail for
// start and lwp-start): the bpf hook refuses them with -ENOTSUP, saying so.
#include "net_filter.hpp"
#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

#include <asm/unistd.h>

#include <cstring>
#include <optional>
#include <string_view>

namespace dt::plugin::proc {
namespace {

using dt::sdk::tp_filter;
using dt::sdk::tp_probe;

constexpr uint32_t k_clone_thread_shift = 16; // CLONE_THREAD 0x00010000

// include/trace/events/signal.h: TRACE_SIGNAL_DELIVERED (0) and
// TRACE_SIGNAL_LOSE_INFO (4) are the results of a queued signal, the only
// ones with result & 3 == 0 (IGNORED 1, ALREADY_PENDING 2, OVERFLOW_FAIL 3).
constexpr uint64_t k_signal_queued_mask = 3;
// The whole result, and TRACE_SIGNAL_IGNORED.
constexpr uint64_t k_signal_result_mask = 0xff;
constexpr int64_t k_signal_ignored = 1;

// signal_generate(sig, info, task, group, result): args[0] and args[1]
// the task, args[2] the signal; the filter tests the result.
constexpr tp_probe signal_row(const char *name, tp_filter result, bool kmod)
{
	return {.name = name,
		.args = {{{0, "struct task_struct *", "lwpsinfo_t *"},
			  {0, "struct task_struct *", "psinfo_t *"},
			  {1, "int", nullptr}}},
		.event = "signal_generate",
		.nargs = 5,
		.argmap = {2, 0, -1, -1, -1, -1},
		.filter = result,
		.kmod = kmod};
}

constexpr tp_probe k_probes[] = {
	// task_newtask(task, clone_flags): a new process, CLONE_THREAD clear.
	{.name = "create",
	 .args = {{{0, "struct task_struct *", "psinfo_t *"}}},
	 .event = "task_newtask",
	 .nargs = 2,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .filter = {.arg = 1, .shift = k_clone_thread_shift, .mask = 1, .value = 0},
	 .kmod = true},
	// sys_enter of execve: arg0 = the path (execveat is not told apart:
	// one system call number per probe).
	{.name = "exec",
	 .args = {{{0, "char *", "string"}}},
	 .event = "sys_enter",
	 .nargs = 2,
	 .filter = {.arg = tp_filter::k_context, .value = __NR_execve},
	 .ctx = DT_BPF_CTX_SYS_ENTER,
	 .kmod = true},
	// sched_process_exec(p, old_pid, bprm): no arguments.
	{.name = "exec-success",
	 .args = {},
	 .event = "sched_process_exec",
	 .nargs = 3,
	 .kmod = true},
	{.name = "exec-failure",
	 .args = {{{0, "int", nullptr}}},
	 .event = nullptr,
	 .kmod = true,
	 .why = "a test of execve's return value, which the bpf engine's attach "
		"description cannot express"},
	// sched_process_exit(p, group_dead): the last thread. arg0, the CLD_*
	// reason, is made from p->exit_code by a program (exit_reason()).
	{.name = "exit",
	 .args = {{{0, "int", nullptr}}},
	 .event = "sched_process_exit",
	 .nargs = 2,
	 .filter = {.arg = 1, .mask = 1, .value = 1, .unfiltered = "fires for every thread's exit"},
	 .kmod = true},
	{.name = "start",
	 .args = {},
	 .event = nullptr,
	 .why = "a kprobe or BPF trampoline on schedule_tail; there is no tracepoint "
		"where a new process first runs"},
	// task_newtask, CLONE_THREAD set.
	{.name = "lwp-create",
	 .args = {{{0, "struct task_struct *", "lwpsinfo_t *"},
		   {0, "struct task_struct *", "psinfo_t *"}}},
	 .event = "task_newtask",
	 .nargs = 2,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .filter = {.arg = 1, .shift = k_clone_thread_shift, .mask = 1, .value = 1},
	 .kmod = true},
	{.name = "lwp-start",
	 .args = {},
	 .event = nullptr,
	 .why = "a kprobe or BPF trampoline on schedule_tail; there is no tracepoint "
		"where a new thread first runs"},
	// sched_process_exit, group_dead 0: other threads remain.
	{.name = "lwp-exit",
	 .args = {},
	 .event = "sched_process_exit",
	 .nargs = 2,
	 .filter = {.arg = 1, .mask = 1, .value = 0},
	 .kmod = true},
	// A signal queued for delivery (see k_signal_queued_mask).
	signal_row("signal-send", {.arg = 4, .mask = k_signal_queued_mask, .value = 0}, true),
	// signal_deliver(sig, info, ka): arg0 = sig, arg1 = info; arg2 (the
	// handler) is 0: it needs ka->sa.sa_handler.
	{.name = "signal-handle",
	 .args = {{{0, "int", nullptr},
		   {1, "siginfo_t *", nullptr},
		   {2, "void (*)(void)", nullptr}}},
	 .event = "signal_deliver",
	 .nargs = 3,
	 .argmap = {0, 1, -1, -1, -1, -1},
	 .kmod = true},
	{.name = "signal-clear",
	 .args = {{{0, "int", nullptr}}},
	 .event = nullptr,
	 .kmod = true,
	 .why = "a test of rt_sigtimedwait's return value, which the bpf engine's "
		"attach description cannot express"},
	// Result TRACE_SIGNAL_IGNORED: a signal the process ignores,
	// discarded. Bpf only: the kernel half does not have it yet.
	signal_row("signal-discard",
		   {.arg = 4, .mask = k_signal_result_mask, .value = k_signal_ignored}, false),
};

constexpr dt::sdk::tracepoint_provider k_proc = {"proc", "vmlinux", k_probes};

using ops = dt::sdk::tracepoint_ops<k_proc, dt::plugin::net::net_kernel>;

// sys/wait.h's CLD_* codes, as illumos' proc:::exit passes them.
constexpr int64_t k_cld_exited = 1;
constexpr int64_t k_cld_killed = 2;
constexpr int64_t k_cld_dumped = 3;

// exit's arg0 from raw argument 0, the task (plugin.h ABI 1.9 arg_steps):
// do_exit()'s code is (status & 0xff) << 8, or the signal that killed it
// (| 0x80 with a core), as the kernel half's dt_proc_exit_reason() reads
// it. Empty without the member in the kernel's BTF.
std::optional<dt::plugin::net::program> exit_reason(dt::plugin::net::kernel_layout &k)
{
	auto code = k.find("task_struct", "exit_code");
	if (!code || code->size != 4)
		return std::nullopt;
	dt::plugin::net::program p;
	p.add(DT_BPF_FOP_ARG, 0);
	p.add(DT_BPF_FOP_LOAD, 4, code->offset); // the code
	p.add(DT_BPF_FOP_PUSH);
	p.add(DT_BPF_FOP_AND, 0, 0x7f); // the signal
	p.add(DT_BPF_FOP_JNE, 2, 0);	// killed: to PEEK
	p.add(DT_BPF_FOP_CONST, 0, k_cld_exited);
	p.add(DT_BPF_FOP_JEQ, 6, k_cld_exited); // always: to the end
	p.add(DT_BPF_FOP_PEEK);
	p.add(DT_BPF_FOP_AND, 0, 0x80); // a core dumped?
	p.add(DT_BPF_FOP_JEQ, 2, 0);	// no: to CLD_KILLED
	p.add(DT_BPF_FOP_CONST, 0, k_cld_dumped);
	p.add(DT_BPF_FOP_JEQ, 1, k_cld_dumped); // always: to the end
	p.add(DT_BPF_FOP_CONST, 0, k_cld_killed);
	return p;
}

// The table's bpf hook, and exit's arg0 from its program where the host
// and the kernel's BTF allow; else arg0 is 0 (logged).
int bpf_attach(void *st, const dt_probe_info_t *probe, dt_bpf_attach_t *out)
{
	return dt::sdk::guard([&] {
		int rc = ops::bpf_attach(st, probe, out);
		const dt::sdk::tp_probe *row = dt::sdk::detail::row_of(k_proc.probes, probe);
		if (rc != 0 || row == nullptr || std::string_view(row->name) != "exit")
			return rc;
		auto *s = static_cast<ops::state *>(st);
		std::optional<dt::plugin::net::program> p = exit_reason(s->kernel.layout);
		if (!p || !p->ok || !DT_ABI_HAS(out, arg_steps)) {
			s->host->log(s->host, DT_LOG_DEBUG, "proc:::exit arg0 is 0: %s",
				     !p ? "no task_struct exit_code in the kernel's BTF"
					: "the host cannot compute it (plugin ABI 1.9)");
			return 0;
		}
		out->arg_from_steps = 0;
		out->arg_nsteps = p->n;
		std::memcpy(out->arg_steps, p->steps, sizeof(p->steps[0]) * p->n);
		return 0;
	});
}

constexpr dt_plugin_bpf_ops_t k_proc_bpf_ops = {
	.sz = sizeof(dt_plugin_bpf_ops_t),
	.attach = bpf_attach,
};

// kmod engine: the kernel half, plugins/proc/kernel (dtrace_proc.ko): the
// rows with .kmod, with the same native arguments.
const dt_plugin_kmod_ops_t k_proc_kmod_ops = dt::sdk::kernel_module("dtrace_proc");

// illumos sdt.c stab_attr for proc (the Guide's "proc Stability").
const dt_plugin_ops_t k_proc_ops =
	ops::plugin("process and thread creation, exec, exit and signals", dt::sdk::k_sdt_stability,
		    DT_PRIV_USER, &k_proc_kmod_ops, &k_proc_bpf_ops);

} // namespace
} // namespace dt::plugin::proc

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): the table's rows.
DT_PLUGIN_NOTE(0, "create exec exec-failure exec-success exit lwp-create lwp-exit lwp-start "
		  "signal-clear signal-discard signal-handle signal-send start");

DT_PLUGIN_DEFINE(dt::plugin::proc::k_proc_ops)
}
