// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_sched.c - the sched provider's kernel half (the Dynamic Tracing
 * Guide's "sched Provider"), from the scheduler's tracepoints. The probes
 * and their arguments are the userspace plugin's rows that say .kmod
 * (plugins/sched/sched_plugin.cc), under the same names, which the D
 * library translates (lwpsinfo_t, psinfo_t, cpuinfo_t of a task):
 *
 *   tracepoint         probe                          arguments
 *   sched_switch       __schedule:off-cpu             arg0 next task
 *                      __schedule:preempt             (preempt)
 *                      TASK_INTERRUPTIBLE:sleep       (!preempt, prev_state & 3 == 1)
 *                      TASK_UNINTERRUPTIBLE:sleep     (!preempt, prev_state & 3 == 2)
 *   sched_wakeup       ttwu_do_activate:enqueue       arg0 the task
 *   sched_wakeup_new   wake_up_new_task:enqueue       arg0 the task
 *   sched_waking       try_to_wake_up:wakeup          arg0 the task (in the waker)
 *   sched_pi_setprio   rt_mutex_setprio:change-pri    arg0 the task
 *
 * Not here: on-cpu, remain-cpu and surrender come from sched_exit_tp and
 * sched_set_need_resched_tp, which Linux 6.16 added with prototypes that
 * have since changed; the bpf engine reads their arity from BTF, this
 * module would have to be built for each. Those probes run on the bpf
 * engine only. dequeue and tick have no tracepoint at all.
 *
 * The tracepoints are found by name (for_each_kernel_tracepoint: they are
 * not exported) and each is registered while one of its probes is
 * enabled. sched_switch's handler runs with the run queue locked and
 * interrupts off: dtrace_probe() takes no lock that could be held there
 * and wakes no one (the consumer polls). The core's synchronize_rcu()
 * after a disable waits for running handlers, module exit waits with
 * tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_sched: " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <dtrace/provider.h>
#include <dtrace/tracepoints.h>

/* The tracepoints, by the index of dt_sched_tps[]. */
enum { DT_TP_SWITCH, DT_TP_WAKEUP, DT_TP_WAKEUP_NEW, DT_TP_WAKING, DT_TP_PI, DT_TP_N };

/* The probes. */
enum {
	DT_P_OFF_CPU, DT_P_PREEMPT, DT_P_SLEEP_INT, DT_P_SLEEP_UNINT, DT_P_ENQUEUE,
	DT_P_ENQUEUE_NEW, DT_P_WAKEUP, DT_P_CHANGE_PRI, DT_P_N
};

static const struct {
	const char *func;
	const char *name;
	unsigned int tp;
} dt_sched_probes[DT_P_N] = {
	[DT_P_OFF_CPU] = { "__schedule", "off-cpu", DT_TP_SWITCH },
	[DT_P_PREEMPT] = { "__schedule", "preempt", DT_TP_SWITCH },
	[DT_P_SLEEP_INT] = { "TASK_INTERRUPTIBLE", "sleep", DT_TP_SWITCH },
	[DT_P_SLEEP_UNINT] = { "TASK_UNINTERRUPTIBLE", "sleep", DT_TP_SWITCH },
	[DT_P_ENQUEUE] = { "ttwu_do_activate", "enqueue", DT_TP_WAKEUP },
	[DT_P_ENQUEUE_NEW] = { "wake_up_new_task", "enqueue", DT_TP_WAKEUP_NEW },
	[DT_P_WAKEUP] = { "try_to_wake_up", "wakeup", DT_TP_WAKING },
	[DT_P_CHANGE_PRI] = { "rt_mutex_setprio", "change-pri", DT_TP_PI },
};

static dtrace_provider_id_t dt_sched_id;
static dtrace_id_t dt_sched_on[DT_P_N];	/* enabled probe ids, 0 = off */

/* illumos sdt.c stab_attr (the Guide's "sched Stability"). */
static const dtrace_pattr_t dt_sched_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

/* include/linux/sched.h: TASK_INTERRUPTIBLE 1, TASK_UNINTERRUPTIBLE 2. */
#define DT_SCHED_SLEEP_MASK	3

/* ==== Probe context ================================================== */

static inline void dt_sched_fire(unsigned int probe, struct task_struct *t)
{
	dtrace_id_t id = READ_ONCE(dt_sched_on[probe]);

	if (id)
		dtrace_probe(id, (uintptr_t)t, 0, 0, 0, 0, 0);
}

static void dt_sched_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state)
{
	dt_sched_fire(DT_P_OFF_CPU, next);
	if (preempt) {
		dt_sched_fire(DT_P_PREEMPT, NULL);
		return;
	}
	switch (prev_state & DT_SCHED_SLEEP_MASK) {
	case TASK_INTERRUPTIBLE:
		dt_sched_fire(DT_P_SLEEP_INT, NULL);
		break;
	case TASK_UNINTERRUPTIBLE:
		dt_sched_fire(DT_P_SLEEP_UNINT, NULL);
		break;
	}
}

static void dt_sched_wakeup(void *data, struct task_struct *p)
{
	dt_sched_fire(DT_P_ENQUEUE, p);
}

static void dt_sched_wakeup_new(void *data, struct task_struct *p)
{
	dt_sched_fire(DT_P_ENQUEUE_NEW, p);
}

static void dt_sched_waking(void *data, struct task_struct *p)
{
	dt_sched_fire(DT_P_WAKEUP, p);
}

static void dt_sched_pi(void *data, struct task_struct *tsk, struct task_struct *pi_task)
{
	dt_sched_fire(DT_P_CHANGE_PRI, tsk);
}

/* ==== Tracepoints ==================================================== */

static struct dtrace_tp dt_sched_tps[DT_TP_N] = {
	[DT_TP_SWITCH] = { "sched_switch", dt_sched_switch },
	[DT_TP_WAKEUP] = { "sched_wakeup", dt_sched_wakeup },
	[DT_TP_WAKEUP_NEW] = { "sched_wakeup_new", dt_sched_wakeup_new },
	[DT_TP_WAKING] = { "sched_waking", dt_sched_waking },
	[DT_TP_PI] = { "sched_pi_setprio", dt_sched_pi },
};

/* ==== Provider operations ============================================ */

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_sched_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_sched_tps[dt_sched_probes[i].tp].tp)
			dtrace_probe_create(dt_sched_id, "vmlinux", dt_sched_probes[i].func,
					    dt_sched_probes[i].name, 1, DTRACE_PARG(i));
	provided = true;
}

static int dt_sched_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	unsigned int t;
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	t = dt_sched_probes[i].tp;
	err = dtrace_tp_get(&dt_sched_tps[t]);
	if (err)
		return err;
	WRITE_ONCE(dt_sched_on[i], id);
	return 0;
}

static void dt_sched_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	unsigned int t;

	if (i >= DT_P_N)
		return;
	t = dt_sched_probes[i].tp;
	WRITE_ONCE(dt_sched_on[i], 0);
	dtrace_tp_put(&dt_sched_tps[t]);
}

static const dtrace_pops_t dt_sched_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_sched_provide,
	.dtps_enable = dt_sched_enable,
	.dtps_disable = dt_sched_disable,
};

static int __init dt_sched_init(void)
{
	dtrace_tp_find(dt_sched_tps, DT_TP_N);
	/* Probes are created by dt_sched_provide, which the core calls. */
	return dtrace_register("sched", &dt_sched_attr, DTRACE_PRIV_USER, &dt_sched_pops, NULL,
			       &dt_sched_id);
}

static void __exit dt_sched_exit(void)
{
	WARN_ON(dtrace_unregister(dt_sched_id));
	/* No handler of ours still runs once this returns. */
	tracepoint_synchronize_unregister();
}

module_init(dt_sched_init);
module_exit(dt_sched_exit);

MODULE_DESCRIPTION("DTrace sched provider: scheduler tracepoints");
MODULE_LICENSE("GPL");
