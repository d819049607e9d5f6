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
#include <dtrace/plugin.hpp>

#include <array>

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
	.init = nullptr,
	.fini = nullptr,
	.probes = proc_probes,
	.probe_args = proc_probe_args,
	.kmod = nullptr,
	.bpf = nullptr,
};

} // namespace
} // namespace dt::plugin::proc

extern "C" {
DT_PLUGIN_DEFINE(dt::plugin::proc::k_proc_ops)
}
