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
#include <dtrace/plugin.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <iterator>

namespace dt::plugin::proc {
namespace {

struct arg_def {
	int32_t mapping;     // native argument args[n] is built from
	const char *native;  // nullptr ends the list
	const char *xlate;   // nullptr: args[n] has the native type
};

struct probe_def {
	const char *name;
	std::array<arg_def, 3> args;
};

constexpr probe_def k_probes[] = {
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

// The table entry for a probe we reported: by cookie, checked by name.
const probe_def *find_probe(const dt_probe_info_t *probe)
{
	if (probe->cookie >= std::size(k_probes))
		return nullptr;
	const probe_def &def = k_probes[probe->cookie];
	return std::strcmp(def.name, probe->name) == 0 ? &def : nullptr;
}

// Twelve constant entries: reporting them all is cheaper than reading
// the query, and the host filters them against it.
int proc_probes(void *, const dt_probe_query_t *, dt_probe_cb cb, void *arg)
{
	try {
		for (uint64_t i = 0; i < std::size(k_probes); i++) {
			dt_probe_info_t p = {sizeof(p), k_provider, k_module, "",
					     k_probes[i].name, i};
			if (cb(arg, &p))
				break;
		}
		return 0;
	} catch (...) {
		return -EIO;
	}
}

int proc_probe_args(void *, const dt_probe_info_t *probe, dt_arg_cb cb, void *arg)
{
	try {
		const probe_def *def = find_probe(probe);
		if (def == nullptr)
			return -ENOENT;
		int32_t ndx = 0;
		for (const arg_def &a : def->args) {
			if (a.native == nullptr)
				break;
			dt_arg_desc_t d = {sizeof(d), ndx++, a.mapping, a.native,
					   a.xlate, nullptr};
			if (cb(arg, &d))
				break;
		}
		return 0;
	} catch (...) {
		return -EIO;
	}
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
