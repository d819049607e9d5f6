// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_lockstat.c - the lockstat provider's kernel half (the Dynamic
 * Tracing Guide's "lockstat Provider"), from lock:contention_begin(lock,
 * flags), which each lock's slow path fires before it spins or sleeps.
 * The probes are the userspace plugin's rows (plugins/lockstat/
 * lockstat_plugin.cc), each one exact value of the LCB_F_* flags, under the
 * same names; arg0 is the lock:
 *
 *   flags          probe
 *   MUTEX|SPIN     __mutex_lock_common:adaptive-spin
 *   MUTEX          __mutex_lock_common:adaptive-block
 *   RT             __rt_mutex_slowlock:adaptive-block
 *   SPIN           queued_spin_lock_slowpath:spin-spin
 *   SPIN|READ      queued_read_lock_slowpath:rw-spin
 *   SPIN|WRITE     queued_write_lock_slowpath:rw-spin
 *   READ, WRITE    rwsem_down_{read,write}_slowpath:rw-block
 *   PERCPU|READ    __percpu_down_read:rw-block
 *   PERCPU|WRITE   percpu_down_write:rw-block
 *
 * As on the bpf engine the probes fire where the wait begins and have no
 * wait time (the plugin's head comment says why).
 *
 * The tracepoint is found by name (for_each_kernel_tracepoint) and
 * registered while a probe is enabled. Its handler runs inside lock slow
 * paths, spin locks' with preemption off and interrupts possibly off:
 * dtrace_probe() takes no lock a caller could hold (its dynamic variable
 * lock is its own arch_spinlock_t, which lockdep and these tracepoints do
 * not see). The core's synchronize_rcu() after a disable waits for running
 * handlers, module exit waits with tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_lockstat: " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <dtrace/provider.h>
#include <dtrace/tracepoints.h>

/* include/trace/events/lock.h */
#define DT_LCB_SPIN	(1U << 0)
#define DT_LCB_READ	(1U << 1)
#define DT_LCB_WRITE	(1U << 2)
#define DT_LCB_RT	(1U << 3)
#define DT_LCB_PERCPU	(1U << 4)
#define DT_LCB_MUTEX	(1U << 5)
#define DT_LCB_ALL	0x3fU

/* The one tracepoint, as the other kernel halves' tables have it. */
enum { DT_TP_BEGIN, DT_TP_N };

static const struct {
	const char *func;
	const char *name;
	unsigned int flags;
	unsigned int tp;
} dt_lockstat_probes[] = {
	{ "__mutex_lock_common", "adaptive-spin", DT_LCB_MUTEX | DT_LCB_SPIN, DT_TP_BEGIN },
	{ "__mutex_lock_common", "adaptive-block", DT_LCB_MUTEX, DT_TP_BEGIN },
	{ "__rt_mutex_slowlock", "adaptive-block", DT_LCB_RT, DT_TP_BEGIN },
	{ "queued_spin_lock_slowpath", "spin-spin", DT_LCB_SPIN, DT_TP_BEGIN },
	{ "queued_read_lock_slowpath", "rw-spin", DT_LCB_SPIN | DT_LCB_READ, DT_TP_BEGIN },
	{ "queued_write_lock_slowpath", "rw-spin", DT_LCB_SPIN | DT_LCB_WRITE, DT_TP_BEGIN },
	{ "rwsem_down_read_slowpath", "rw-block", DT_LCB_READ, DT_TP_BEGIN },
	{ "rwsem_down_write_slowpath", "rw-block", DT_LCB_WRITE, DT_TP_BEGIN },
	{ "__percpu_down_read", "rw-block", DT_LCB_PERCPU | DT_LCB_READ, DT_TP_BEGIN },
	{ "percpu_down_write", "rw-block", DT_LCB_PERCPU | DT_LCB_WRITE, DT_TP_BEGIN },
};

#define DT_P_N	ARRAY_SIZE(dt_lockstat_probes)

static dtrace_provider_id_t dt_lockstat_id;
static dtrace_id_t dt_lockstat_on[DT_P_N];	/* enabled probe ids, 0 = off */

/* illumos lockstat.c lockstat_attr. */
static const dtrace_pattr_t dt_lockstat_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

/* ==== Probe context ================================================== */

static void dt_lockstat_begin(void *data, void *lock, unsigned int flags)
{
	unsigned int i;
	dtrace_id_t id;

	for (i = 0; i < DT_P_N; i++) {
		if (dt_lockstat_probes[i].flags != (flags & DT_LCB_ALL))
			continue;
		id = READ_ONCE(dt_lockstat_on[i]);
		if (id)
			dtrace_probe(id, (uintptr_t)lock, 0, 0, 0, 0, 0);
		return;
	}
}

/* ==== Tracepoints ==================================================== */

static struct dtrace_tp dt_lockstat_tps[DT_TP_N] = {
	[DT_TP_BEGIN] = { "contention_begin", dt_lockstat_begin },
};

/* ==== Provider operations ============================================ */

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_lockstat_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_lockstat_tps[dt_lockstat_probes[i].tp].tp)
			dtrace_probe_create(dt_lockstat_id, "vmlinux", dt_lockstat_probes[i].func,
					    dt_lockstat_probes[i].name, 1, DTRACE_PARG(i));
	provided = true;
}

static int dt_lockstat_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	unsigned int t;
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	t = dt_lockstat_probes[i].tp;
	err = dtrace_tp_get(&dt_lockstat_tps[t]);
	if (err)
		return err;
	WRITE_ONCE(dt_lockstat_on[i], id);
	return 0;
}

static void dt_lockstat_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	unsigned int t;

	if (i >= DT_P_N)
		return;
	t = dt_lockstat_probes[i].tp;
	WRITE_ONCE(dt_lockstat_on[i], 0);
	dtrace_tp_put(&dt_lockstat_tps[t]);
}

static const dtrace_pops_t dt_lockstat_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_lockstat_provide,
	.dtps_enable = dt_lockstat_enable,
	.dtps_disable = dt_lockstat_disable,
};

static int __init dt_lockstat_init(void)
{
	dtrace_tp_find(dt_lockstat_tps, DT_TP_N);
	/* Probes are created by dt_lockstat_provide, which the core calls. */
	return dtrace_register("lockstat", &dt_lockstat_attr, DTRACE_PRIV_KERNEL,
			       &dt_lockstat_pops, NULL, &dt_lockstat_id);
}

static void __exit dt_lockstat_exit_module(void)
{
	WARN_ON(dtrace_unregister(dt_lockstat_id));
	/* No handler of ours still runs once this returns. */
	tracepoint_synchronize_unregister();
}

module_init(dt_lockstat_init);
module_exit(dt_lockstat_exit_module);

MODULE_DESCRIPTION("DTrace lockstat provider: lock contention tracepoint");
MODULE_LICENSE("GPL");
