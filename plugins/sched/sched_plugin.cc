// SPDX-License-Identifier: MIT
// The sched provider (dt_sched.so): CPU scheduling probes (the Dynamic
// Tracing Guide's "sched Provider"), a tracepoint-backed provider made of
// one table, k_probes below. Each row maps a raw tracepoint to
// sched:vmlinux:<function>:<name>, where <function> is the kernel function
// that fires the tracepoint, as illumos names the function of each sched
// probe (sched:unix:swtch:on-cpu):
//
//   sched_exit_tp (is_switch 1)    -> __schedule:on-cpu     the new thread
//   sched_exit_tp (is_switch 0)    -> __schedule:remain-cpu
//   sched_switch                   -> __schedule:off-cpu    args: next
//   sched_switch (preempt 1)       -> __schedule:preempt
//   sched_switch (prev_state & 3)  -> TASK_INTERRUPTIBLE:sleep (1),
//                                     TASK_UNINTERRUPTIBLE:sleep (2)
//   sched_wakeup                   -> ttwu_do_activate:enqueue
//   sched_wakeup_new               -> wake_up_new_task:enqueue
//   sched_waking                   -> try_to_wake_up:wakeup  (waker's context)
//   sched_pi_setprio               -> rt_mutex_setprio:change-pri
//   sched_set_need_resched_tp      -> __resched_curr:surrender
//
// Where the probes fire, in whose context:
// - off-cpu, preempt and sleep fire in sched_switch, before the switch:
//   curthread is the thread leaving the CPU, args[0]/args[1] the next one.
// - on-cpu fires in sched_exit_tp, the last statement of __schedule(), once
//   context_switch() has returned in the thread switched to: curthread is
//   the thread now on the CPU, is_switch (1) is what its own __schedule()
//   decided when it left the CPU. A new thread's first run returns through
//   schedule_tail() instead, where there is no tracepoint: its first
//   on-cpu is not seen. remain-cpu is the same tracepoint with is_switch 0:
//   __schedule() chose the thread that was running.
// - sleep: a voluntary switch with the thread's state INTERRUPTIBLE or
//   UNINTERRUPTIBLE (prev_state; try_to_block_task() resets it to RUNNING
//   when a signal is pending, so the thread did block). One probe per
//   state, as illumos has one per synchronization primitive.
// - enqueue: Linux puts a thread on a run queue when it is woken
//   (sched_wakeup) or first made runnable (sched_wakeup_new); a preempted
//   thread stays on its run queue, so it is not enqueued as on illumos.
//   args[2] is the CPU whose run queue it joins (the task's CPU).
//
// Rows without an event say why (dequeue, tick, change-pri's argument,
// the schedctl probes): the bpf hook refuses them with -ENOTSUP.
//
// The arguments are illumos' (usr/src/uts/common/dtrace/sdt_subr.c,
// sdt_args[] for sched) with Linux's native types: a struct task_struct *
// seen through lib/dtrace/procfs.d's lwpsinfo_t and psinfo_t and
// sched.d's cpuinfo_t. The arity of each tracepoint comes from the
// kernel's BTF (raw_tracepoints.hpp); sched_exit_tp and
// sched_set_need_resched_tp are Linux 6.16's, so on older kernels on-cpu,
// remain-cpu and surrender are refused with that reason.
#include "raw_tracepoints.hpp"

#include <dtrace/plugin.hpp>

namespace dt::plugin::sched {
namespace {

using dt::sdk::table_arg;
using dt::sdk::tp_probe;

// include/linux/sched.h: TASK_INTERRUPTIBLE 1, TASK_UNINTERRUPTIBLE 2.
constexpr uint64_t k_sleep_mask = 3;

// The arguments: a task as lwpsinfo_t and psinfo_t, and its CPU.
constexpr table_arg k_lwp = {0, "struct task_struct *", "lwpsinfo_t *"};
constexpr table_arg k_ps = {0, "struct task_struct *", "psinfo_t *"};
constexpr table_arg k_cpu = {0, "struct task_struct *", "cpuinfo_t *"};

constexpr tp_probe k_probes[] = {
	// sched_switch(preempt, prev, next, prev_state): args = next.
	{.name = "off-cpu",
	 .args = {{k_lwp, k_ps}},
	 .event = "sched_switch",
	 .nargs = 4,
	 .argmap = {2, -1, -1, -1, -1, -1},
	 .kmod = true,
	 .func = "__schedule"},
	// sched_exit_tp(is_switch): in the thread now running.
	{.name = "on-cpu",
	 .args = {},
	 .event = "sched_exit_tp",
	 .nargs = 1,
	 .filter = {.arg = 0, .mask = 1, .value = 1},
	 .func = "__schedule"},
	{.name = "remain-cpu",
	 .args = {},
	 .event = "sched_exit_tp",
	 .nargs = 1,
	 .filter = {.arg = 0, .mask = 1, .value = 0},
	 .func = "__schedule"},
	{.name = "preempt",
	 .args = {},
	 .event = "sched_switch",
	 .nargs = 4,
	 .filter = {.arg = 0, .mask = 1, .value = 1},
	 .kmod = true,
	 .func = "__schedule"},
	{.name = "sleep",
	 .args = {},
	 .event = "sched_switch",
	 .nargs = 4,
	 .filter = {.arg = 3, .mask = k_sleep_mask, .value = 1},
	 .kmod = true,
	 .func = "TASK_INTERRUPTIBLE"},
	{.name = "sleep",
	 .args = {},
	 .event = "sched_switch",
	 .nargs = 4,
	 .filter = {.arg = 3, .mask = k_sleep_mask, .value = 2},
	 .kmod = true,
	 .func = "TASK_UNINTERRUPTIBLE"},
	// sched_wakeup(p), sched_wakeup_new(p): p joins task_cpu(p)'s queue.
	{.name = "enqueue",
	 .args = {{k_lwp, k_ps, k_cpu}},
	 .event = "sched_wakeup",
	 .nargs = 1,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .kmod = true,
	 .func = "ttwu_do_activate"},
	{.name = "enqueue",
	 .args = {{k_lwp, k_ps, k_cpu}},
	 .event = "sched_wakeup_new",
	 .nargs = 1,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .kmod = true,
	 .func = "wake_up_new_task"},
	{.name = "dequeue",
	 .args = {{k_lwp, k_ps, k_cpu}},
	 .event = nullptr,
	 .why = "a tracepoint where a thread leaves a run queue; Linux keeps the running "
		"thread on its queue and sched_update_nr_running_tp does not name the thread"},
	// sched_waking(p): at the start of try_to_wake_up(), in the waker.
	{.name = "wakeup",
	 .args = {{k_lwp, k_ps}},
	 .event = "sched_waking",
	 .nargs = 1,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .kmod = true,
	 .func = "try_to_wake_up"},
	// sched_pi_setprio(tsk, pi_task): the priority a lock donates; the new
	// priority (args[2]) is computed inside the tracepoint's record and is
	// not an argument, so it is not given.
	{.name = "change-pri",
	 .args = {{k_lwp, k_ps}},
	 .event = "sched_pi_setprio",
	 .nargs = 2,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .kmod = true,
	 .func = "rt_mutex_setprio"},
	// sched_set_need_resched_tp(tsk, cpu, tif): tsk, running on cpu, is
	// told to reschedule.
	{.name = "surrender",
	 .args = {{k_lwp, k_ps}},
	 .event = "sched_set_need_resched_tp",
	 .nargs = 3,
	 .argmap = {0, -1, -1, -1, -1, -1},
	 .func = "__resched_curr"},
	{.name = "tick",
	 .args = {{k_lwp, k_ps}},
	 .event = nullptr,
	 .why = "a tracepoint in the scheduler tick, which Linux does not have (profile:::"
		"profile-<HZ> with curlwpsinfo and curpsinfo fires at the same rate)"},
	{.name = "schedctl-nopreempt",
	 .args = {{k_lwp, k_ps}},
	 .event = nullptr,
	 .why = "schedctl(2) preemption control, which Linux does not have"},
	{.name = "schedctl-preempt",
	 .args = {{k_lwp, k_ps}},
	 .event = nullptr,
	 .why = "schedctl(2) preemption control, which Linux does not have"},
	{.name = "schedctl-yield",
	 .args = {{table_arg{0, "int", nullptr}}},
	 .event = nullptr,
	 .why = "schedctl(2) preemption control, which Linux does not have"},
};

constexpr dt::sdk::tracepoint_provider k_sched = {"sched", "vmlinux", k_probes};

using ops = dt::sdk::tracepoint_ops<k_sched, dt::plugin::raw_tracepoints>;

// kmod engine: the kernel half, plugins/sched/kernel (dtrace_sched.ko): the
// rows with .kmod, with the same native arguments.
const dt_plugin_kmod_ops_t k_sched_kmod_ops = dt::sdk::kernel_module("dtrace_sched");

// illumos sdt.c stab_attr for sched (the Guide's "sched Stability").
const dt_plugin_ops_t k_sched_ops =
	ops::plugin("CPU scheduling: threads on and off CPU, sleep, wakeup, run queues",
		    dt::sdk::k_sdt_stability, DT_PRIV_USER, &k_sched_kmod_ops);

} // namespace
} // namespace dt::plugin::sched

extern "C" {
// Read before dlopen() (plugin.h DT_PLUGIN_NOTE): the table's rows.
DT_PLUGIN_NOTE(0, "change-pri dequeue enqueue off-cpu on-cpu preempt remain-cpu "
		  "schedctl-nopreempt schedctl-preempt schedctl-yield sleep surrender tick "
		  "wakeup");

DT_PLUGIN_DEFINE(dt::plugin::sched::k_sched_ops)
}
