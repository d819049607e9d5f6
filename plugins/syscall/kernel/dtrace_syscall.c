// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_syscall.c - the syscall provider's kernel half (illumos systrace):
 *
 *   raw_syscalls:sys_enter (regs, id)   ->  syscall:vmlinux:<name>:entry
 *                                           arg0-5: the system call's arguments
 *   raw_syscalls:sys_exit  (regs, ret)  ->  syscall:vmlinux:<name>:return
 *                                           arg0, arg1: the return value
 *
 * Names come from the kernel's own system call table list
 * (<asm/syscalls_64.h>, generated in the kernel build tree), with the
 * sys_ prefix dropped, which are the names of the tracefs syscalls:
 * events the userspace plugin lists. Numbers without a system call
 * (sys_ni_syscall) get no probe.
 *
 * The two tracepoints are a table of dtrace/tracepoints.h: found by name
 * at init, each registered while a probe that reads it is enabled
 * (sys_enter for entry probes, sys_exit for return probes); each firing
 * looks up an enabled-probe table indexed by system call number (one
 * READ_ONCE; 0 = not enabled). 32-bit (compat) system calls use another
 * numbering and are not traced yet.
 *
 * Context: the tracepoint handlers run in the calling task, preemption
 * disabled (an RCU read section): the core's synchronize_rcu() after a
 * disable waits for them; module exit waits with
 * tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_syscall: " fmt

#include <linux/compat.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <asm/syscall.h>

#include <dtrace/provider.h>
#include <dtrace/tracepoints.h>

#ifndef CONFIG_X86_64
#error "dtrace_syscall: only x86-64's system call table is wired up"
#endif

#define __SYSCALL(nr, sym) [nr] = #sym,
static const char *const dt_sys_names[] = {
#include <asm/syscalls_64.h>
};
#undef __SYSCALL

#define DT_SYS_N ARRAY_SIZE(dt_sys_names)

static dtrace_provider_id_t dt_sys_id;
static dtrace_id_t dt_sys_entry_on[DT_SYS_N];	/* enabled probe ids, 0 = off */
static dtrace_id_t dt_sys_return_on[DT_SYS_N];

static const dtrace_pattr_t dt_sys_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

/* parg: 1 + (nr << 1 | is_return), so that it is never NULL. */
#define DT_SYS_PARG(nr, ret)	((void *)(uintptr_t)(1 + (((nr) << 1) | (ret))))
#define DT_SYS_NR(parg)		(((uintptr_t)(parg) - 1) >> 1)
#define DT_SYS_RET(parg)	(((uintptr_t)(parg) - 1) & 1)

static const char *dt_sys_name(unsigned int nr)
{
	const char *s = dt_sys_names[nr];

	if (!s || !strcmp(s, "sys_ni_syscall"))
		return NULL;
	return strncmp(s, "sys_", 4) ? s : s + 4;
}

/* ==== Probe context ================================================== */

static void dt_sys_enter(void *data, struct pt_regs *regs, long id)
{
	unsigned long args[6];
	dtrace_id_t pid;

	if (id < 0 || id >= DT_SYS_N || in_compat_syscall())
		return;
	pid = READ_ONCE(dt_sys_entry_on[id]);
	if (!pid)
		return;
	syscall_get_arguments(current, regs, args);
	dtrace_probe(pid, args[0], args[1], args[2], args[3], args[4], args[5]);
}

static void dt_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	long id = syscall_get_nr(current, regs);
	dtrace_id_t pid;

	if (id < 0 || id >= DT_SYS_N || in_compat_syscall())
		return;
	pid = READ_ONCE(dt_sys_return_on[id]);
	if (pid)
		dtrace_probe(pid, ret, ret, 0, 0, 0, 0);
}

/* Indexed by DT_SYS_RET(parg): entry probes read sys_enter, return probes sys_exit. */
static struct dtrace_tp dt_sys_tps[] = {
	{ .name = "sys_enter", .func = dt_sys_enter },
	{ .name = "sys_exit", .func = dt_sys_exit },
};

/* ==== Provider operations ============================================ */

/* Every probe exists from init on; later calls find nothing to add. */
static void dt_sys_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int nr;

	if (provided)
		return;
	for (nr = 0; nr < DT_SYS_N; nr++) {
		const char *name = dt_sys_name(nr);

		if (!name)
			continue;
		dtrace_probe_create(dt_sys_id, "vmlinux", name, "entry", 1,
				    DT_SYS_PARG(nr, 0));
		dtrace_probe_create_flags(dt_sys_id, "vmlinux", name, "return", 1,
					  DT_SYS_PARG(nr, 1), DTRACE_PROBE_F_ERRNO_RETURN);
	}
	provided = true;
}

static int dt_sys_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long nr = DT_SYS_NR(parg);
	int err;

	if (nr >= DT_SYS_N)
		return -EINVAL;
	err = dtrace_tp_get(&dt_sys_tps[DT_SYS_RET(parg)]);
	if (err)
		return err;
	if (DT_SYS_RET(parg))
		WRITE_ONCE(dt_sys_return_on[nr], id);
	else
		WRITE_ONCE(dt_sys_entry_on[nr], id);
	return 0;
}

static void dt_sys_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long nr = DT_SYS_NR(parg);

	if (nr >= DT_SYS_N)
		return;
	if (DT_SYS_RET(parg))
		WRITE_ONCE(dt_sys_return_on[nr], 0);
	else
		WRITE_ONCE(dt_sys_entry_on[nr], 0);
	dtrace_tp_put(&dt_sys_tps[DT_SYS_RET(parg)]);
}

static const dtrace_pops_t dt_sys_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_sys_provide,
	.dtps_enable = dt_sys_enable,
	.dtps_disable = dt_sys_disable,
};

static int __init dt_sys_init(void)
{
	int err;

	if (dtrace_tp_find(dt_sys_tps, ARRAY_SIZE(dt_sys_tps)) != ARRAY_SIZE(dt_sys_tps)) {
		pr_err("no sys_enter/sys_exit tracepoints\n");
		return -ENODEV;
	}
	err = dtrace_register("syscall", &dt_sys_attr, DTRACE_PRIV_USER, &dt_sys_pops, NULL,
			      &dt_sys_id);
	/* Probes are created by dt_sys_provide, which the core calls. */
	return err;
}

static void __exit dt_sys_exit_module(void)
{
	WARN_ON(dtrace_unregister(dt_sys_id));
	/* No handler of ours still runs once this returns. */
	tracepoint_synchronize_unregister();
}

module_init(dt_sys_init);
module_exit(dt_sys_exit_module);

MODULE_DESCRIPTION("DTrace syscall provider: raw_syscalls tracepoints");
MODULE_LICENSE("GPL");
