// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_proc.c - the proc provider's kernel half (illumos sdt proc
 * probes, as the Dynamic Tracing Guide's "proc Provider"), from the
 * kernel's tracepoints. Every probe is proc:vmlinux::<name>; arguments
 * are the native ones the userspace plugin (plugins/proc/proc_plugin.cc)
 * describes, which the D library translates (psinfo_t, lwpsinfo_t):
 *
 *   tracepoint              probe          arguments
 *   sched_process_fork      create         arg0 child task (new process only)
 *   raw_syscalls:sys_enter  exec           arg0 the path (a kernel copy)
 *                           (execve, execveat)
 *   sched_process_exec      exec-success   none
 *   raw_syscalls:sys_exit   exec-failure   arg0 errno
 *                           (execve, execveat returning an error)
 *   sched_process_exit      exit           arg0 CLD_EXITED/KILLED/DUMPED
 *                           (the process's last thread)
 *   task_newtask            lwp-create     arg0 new task (CLONE_THREAD)
 *   sched_process_exit      lwp-exit       none (threads remain)
 *   signal_generate         signal-send    arg0 target task, arg1 signal
 *                           (signals queued for delivery)
 *   signal_deliver          signal-handle  arg0 signal, arg1 siginfo,
 *                                          arg2 the handler
 *   raw_syscalls:sys_exit   signal-clear   arg0 signal
 *                           (rt_sigtimedwait returning one)
 *
 * Not provided: start and lwp-start (illumos: the new process or thread's
 * first instruction in its own context). Linux has no tracepoint where a
 * new task first runs (that is schedule_tail(), a function), so this
 * module has no such probes rather than approximate ones.
 *
 * exit: the kernel of this era decides whether a thread is the last of
 * its process (do_exit()'s group_dead) before sched_process_exit but does
 * not pass it; the handler reads signal->live, which is 0 once the last
 * thread decremented it. Threads that exit together (exit_group()) may
 * therefore all see 0 and fire exit more than once for one process; a
 * single-threaded process fires it exactly once.
 *
 * The tracepoints are found by name (for_each_kernel_tracepoint: they are
 * not exported) and each is registered while one of its probes is
 * enabled. Handlers run in the traced task (signal_generate: in the
 * sender, possibly an interrupt), preemption disabled; the core's
 * synchronize_rcu() after a disable waits for them, and module exit
 * waits with tracepoint_synchronize_unregister(). 32-bit (compat) system
 * calls are not traced by exec, exec-failure and signal-clear.
 */
#define pr_fmt(fmt) "dtrace_proc: " fmt

#include <linux/compat.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <trace/events/signal.h>

#include <dtrace/provider.h>
#include <dtrace/tracepoints.h>

#ifndef CONFIG_X86_64
#error "dtrace_proc: only x86-64's system call numbers are wired up"
#endif

/* The tracepoints, by the index of dt_proc_tps[]. */
enum {
	DT_TP_FORK, DT_TP_NEWTASK, DT_TP_EXEC, DT_TP_EXIT, DT_TP_SIGGEN,
	DT_TP_SIGDELIVER, DT_TP_SYSENTER, DT_TP_SYSEXIT, DT_TP_N
};

/* The probes, in the userspace plugin's order (start, lwp-start absent). */
enum {
	DT_P_CREATE, DT_P_EXEC, DT_P_EXEC_SUCCESS, DT_P_EXEC_FAILURE, DT_P_EXIT,
	DT_P_LWP_CREATE, DT_P_LWP_EXIT, DT_P_SIGNAL_SEND, DT_P_SIGNAL_HANDLE,
	DT_P_SIGNAL_CLEAR, DT_P_N
};

static const struct {
	const char *name;
	unsigned int tp;
} dt_proc_probes[DT_P_N] = {
	[DT_P_CREATE] = { "create", DT_TP_FORK },
	[DT_P_EXEC] = { "exec", DT_TP_SYSENTER },
	[DT_P_EXEC_SUCCESS] = { "exec-success", DT_TP_EXEC },
	[DT_P_EXEC_FAILURE] = { "exec-failure", DT_TP_SYSEXIT },
	[DT_P_EXIT] = { "exit", DT_TP_EXIT },
	[DT_P_LWP_CREATE] = { "lwp-create", DT_TP_NEWTASK },
	[DT_P_LWP_EXIT] = { "lwp-exit", DT_TP_EXIT },
	[DT_P_SIGNAL_SEND] = { "signal-send", DT_TP_SIGGEN },
	[DT_P_SIGNAL_HANDLE] = { "signal-handle", DT_TP_SIGDELIVER },
	[DT_P_SIGNAL_CLEAR] = { "signal-clear", DT_TP_SYSEXIT },
};

static dtrace_provider_id_t dt_proc_id;
static dtrace_id_t dt_proc_on[DT_P_N];	/* enabled probe ids, 0 = off */
static char __percpu *dt_proc_path;	/* exec's copy of the path */

static const dtrace_pattr_t dt_proc_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

static inline dtrace_id_t dt_proc_enabled(unsigned int probe)
{
	return READ_ONCE(dt_proc_on[probe]);
}

/* ==== Probe context ================================================== */

static void dt_proc_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	dtrace_id_t id = dt_proc_enabled(DT_P_CREATE);

	/* A new thread is lwp-create's (task_newtask). */
	if (id && thread_group_leader(child))
		dtrace_probe(id, (uintptr_t)child, 0, 0, 0, 0, 0);
}

static void dt_proc_newtask(void *data, struct task_struct *task, unsigned long clone_flags)
{
	dtrace_id_t id = dt_proc_enabled(DT_P_LWP_CREATE);

	if (id && (clone_flags & CLONE_THREAD))
		dtrace_probe(id, (uintptr_t)task, 0, 0, 0, 0, 0);
}

static void dt_proc_exec(void *data, struct task_struct *p, pid_t old_pid,
			 struct linux_binprm *bprm)
{
	dtrace_id_t id = dt_proc_enabled(DT_P_EXEC_SUCCESS);

	if (id)
		dtrace_probe(id, 0, 0, 0, 0, 0, 0);
}

/* do_exit()'s code: (status & 0xff) << 8, or the signal (| 0x80: core). */
static u64 dt_proc_exit_reason(int code)
{
	if (!(code & 0x7f))
		return CLD_EXITED;
	return (code & 0x80) ? CLD_DUMPED : CLD_KILLED;
}

static void dt_proc_exit(void *data, struct task_struct *p)
{
	dtrace_id_t id;

	/* See the head comment: 0 once the process's last thread got here. */
	if (atomic_read(&p->signal->live) == 0) {
		id = dt_proc_enabled(DT_P_EXIT);
		if (id)
			dtrace_probe(id, dt_proc_exit_reason(p->exit_code), 0, 0, 0, 0, 0);
	} else {
		id = dt_proc_enabled(DT_P_LWP_EXIT);
		if (id)
			dtrace_probe(id, 0, 0, 0, 0, 0, 0);
	}
}

static void dt_proc_siggen(void *data, int sig, struct kernel_siginfo *info,
			   struct task_struct *task, int group, int result)
{
	dtrace_id_t id = dt_proc_enabled(DT_P_SIGNAL_SEND);

	/* Queued (complete_signal() ran): not ignored, not already pending. */
	if (id && (result == TRACE_SIGNAL_DELIVERED || result == TRACE_SIGNAL_LOSE_INFO))
		dtrace_probe(id, (uintptr_t)task, sig, 0, 0, 0, 0);
}

static void dt_proc_sigdeliver(void *data, int sig, struct kernel_siginfo *info,
			       struct k_sigaction *ka)
{
	dtrace_id_t id = dt_proc_enabled(DT_P_SIGNAL_HANDLE);

	if (id)
		dtrace_probe(id, sig, (uintptr_t)info, (uintptr_t)ka->sa.sa_handler, 0, 0, 0);
}

/*
 * Copy the user string src into buf (PATH_MAX bytes) without faulting,
 * a page at a time (copy_from_user_nofault() is what the kernel exports;
 * the string may end just before an unmapped page). False if a page of
 * it is not resident.
 */
static bool dt_proc_copy_path(char *buf, const char __user *src)
{
	size_t off = 0, n;

	while (off < PATH_MAX - 1) {
		n = min_t(size_t, PATH_MAX - 1 - off,
			  PAGE_SIZE - offset_in_page((unsigned long)src + off));
		if (copy_from_user_nofault(buf + off, src + off, n))
			return false;
		if (memchr(buf + off, '\0', n))
			return true;
		off += n;
	}
	buf[PATH_MAX - 1] = '\0';
	return true;
}

static void dt_proc_sys_enter(void *data, struct pt_regs *regs, long nr)
{
	dtrace_id_t id = dt_proc_enabled(DT_P_EXEC);
	unsigned long args[6];
	const char __user *path;
	char *buf;

	if (!id || (nr != __NR_execve && nr != __NR_execveat) || in_compat_syscall())
		return;
	syscall_get_arguments(current, regs, args);
	path = (const char __user *)(nr == __NR_execve ? args[0] : args[1]);
	/* The buffer is this CPU's until dtrace_probe() returns. */
	preempt_disable_notrace();
	buf = this_cpu_ptr(dt_proc_path);
	if (!dt_proc_copy_path(buf, path))
		buf = NULL;	/* not resident: args[0] reads as a bad address */
	dtrace_probe(id, (uintptr_t)buf, 0, 0, 0, 0, 0);
	preempt_enable_notrace();
}

static void dt_proc_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	long nr;
	dtrace_id_t id;

	if (in_compat_syscall())
		return;
	nr = syscall_get_nr(current, regs);
	if ((nr == __NR_execve || nr == __NR_execveat) && ret < 0) {
		id = dt_proc_enabled(DT_P_EXEC_FAILURE);
		if (id)
			dtrace_probe(id, -ret, 0, 0, 0, 0, 0);
	} else if (nr == __NR_rt_sigtimedwait && ret > 0) {
		id = dt_proc_enabled(DT_P_SIGNAL_CLEAR);
		if (id)
			dtrace_probe(id, ret, 0, 0, 0, 0, 0);
	}
}

/* ==== Tracepoints ==================================================== */

static struct dtrace_tp dt_proc_tps[DT_TP_N] = {
	[DT_TP_FORK] = { "sched_process_fork", dt_proc_fork },
	[DT_TP_NEWTASK] = { "task_newtask", dt_proc_newtask },
	[DT_TP_EXEC] = { "sched_process_exec", dt_proc_exec },
	[DT_TP_EXIT] = { "sched_process_exit", dt_proc_exit },
	[DT_TP_SIGGEN] = { "signal_generate", dt_proc_siggen },
	[DT_TP_SIGDELIVER] = { "signal_deliver", dt_proc_sigdeliver },
	[DT_TP_SYSENTER] = { "sys_enter", dt_proc_sys_enter },
	[DT_TP_SYSEXIT] = { "sys_exit", dt_proc_sys_exit },
};

/* ==== Provider operations ============================================ */

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_proc_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_proc_tps[dt_proc_probes[i].tp].tp)
			dtrace_probe_create(dt_proc_id, "vmlinux", "", dt_proc_probes[i].name,
					    1, DTRACE_PARG(i));
	provided = true;
}

static int dt_proc_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	unsigned int t;
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	t = dt_proc_probes[i].tp;
	err = dtrace_tp_get(&dt_proc_tps[t]);
	if (err)
		return err;
	WRITE_ONCE(dt_proc_on[i], id);
	return 0;
}

static void dt_proc_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	unsigned int t;

	if (i >= DT_P_N)
		return;
	t = dt_proc_probes[i].tp;
	WRITE_ONCE(dt_proc_on[i], 0);
	dtrace_tp_put(&dt_proc_tps[t]);
}

static const dtrace_pops_t dt_proc_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_proc_provide,
	.dtps_enable = dt_proc_enable,
	.dtps_disable = dt_proc_disable,
};

static int __init dt_proc_init(void)
{
	int err;

	dtrace_tp_find(dt_proc_tps, DT_TP_N);
	dt_proc_path = __alloc_percpu(PATH_MAX, SMP_CACHE_BYTES);
	if (!dt_proc_path)
		return -ENOMEM;
	/* Probes are created by dt_proc_provide, which the core calls. */
	err = dtrace_register("proc", &dt_proc_attr, DTRACE_PRIV_USER, &dt_proc_pops, NULL,
			      &dt_proc_id);
	if (err)
		free_percpu(dt_proc_path);
	return err;
}

static void __exit dt_proc_exit_module(void)
{
	WARN_ON(dtrace_unregister(dt_proc_id));
	/* No handler of ours still runs once this returns. */
	tracepoint_synchronize_unregister();
	free_percpu(dt_proc_path);
}

module_init(dt_proc_init);
module_exit(dt_proc_exit_module);

MODULE_DESCRIPTION("DTrace proc provider: process and signal tracepoints");
MODULE_LICENSE("GPL");
