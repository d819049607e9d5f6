// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_lockstat.c - the lockstat provider's kernel half (the Dynamic
 * Tracing Guide's "lockstat Provider"), from lock:contention_begin(lock,
 * flags), which each lock's slow path fires before it spins or sleeps, and
 * lock:contention_end(lock, ret) once the wait is over. The probes are the
 * userspace plugin's rows (plugins/lockstat/lockstat_plugin.cc), each one
 * exact value of the LCB_F_* flags, under the same names:
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
 * As on the bpf engine (and in illumos) a probe fires once the lock is
 * taken, at contention_end with ret 0: arg0 the lock, arg1 the time spent
 * spinning or sleeping for it in nanoseconds. The begin is kept per task
 * and lock in dt_ls_waits[], a table without locks (the handlers run
 * inside lock slow paths, where taking a lock of ours could recurse into
 * them): a task claims a free slot with cmpxchg() and only that task reads
 * or frees it. A wait whose begin found the table full fires nothing; a
 * later begin of the same task and lock replaces an earlier one (a mutex's
 * spin, then its sleep: the sleep's).
 *
 * The tracepoints are found by name (for_each_kernel_tracepoint) and
 * registered while a probe is enabled. Their handlers run inside lock slow
 * paths, spin locks' with preemption off and interrupts possibly off:
 * dtrace_probe() takes no lock a caller could hold (its dynamic variable
 * lock is its own arch_spinlock_t, which lockdep and these tracepoints do
 * not see), and the clock is ktime_get_mono_fast_ns(), safe where the
 * timekeeping lock is the one contended. The core's synchronize_rcu()
 * after a disable waits for running handlers, module exit waits with
 * tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_lockstat: " fmt

#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
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

/* The tracepoints, as the other kernel halves' tables have them. */
enum { DT_TP_BEGIN, DT_TP_END, DT_TP_N };

static const struct {
	const char *func;
	const char *name;
	unsigned int flags;
} dt_lockstat_probes[] = {
	{ "__mutex_lock_common", "adaptive-spin", DT_LCB_MUTEX | DT_LCB_SPIN },
	{ "__mutex_lock_common", "adaptive-block", DT_LCB_MUTEX },
	{ "__rt_mutex_slowlock", "adaptive-block", DT_LCB_RT },
	{ "queued_spin_lock_slowpath", "spin-spin", DT_LCB_SPIN },
	{ "queued_read_lock_slowpath", "rw-spin", DT_LCB_SPIN | DT_LCB_READ },
	{ "queued_write_lock_slowpath", "rw-spin", DT_LCB_SPIN | DT_LCB_WRITE },
	{ "rwsem_down_read_slowpath", "rw-block", DT_LCB_READ },
	{ "rwsem_down_write_slowpath", "rw-block", DT_LCB_WRITE },
	{ "__percpu_down_read", "rw-block", DT_LCB_PERCPU | DT_LCB_READ },
	{ "percpu_down_write", "rw-block", DT_LCB_PERCPU | DT_LCB_WRITE },
};

#define DT_P_N	ARRAY_SIZE(dt_lockstat_probes)

static dtrace_provider_id_t dt_lockstat_id;
static dtrace_id_t dt_lockstat_on[DT_P_N];	/* enabled probe ids, 0 = off */
static unsigned int dt_lockstat_nenabled;	/* probe lock */

/* A wait in progress: its task's, from contention_begin to _end. */
struct dt_ls_wait {
	struct task_struct *task;	/* the owner; NULL: free */
	void *lock;
	u64 start;			/* ktime_get_mono_fast_ns() at the begin */
	unsigned int flags;
};

#define DT_LS_BITS	10
#define DT_LS_SLOTS	(1U << DT_LS_BITS)
#define DT_LS_PROBES	16		/* slots a lookup tries */

static struct dt_ls_wait dt_ls_waits[DT_LS_SLOTS];

/* illumos lockstat.c lockstat_attr. */
static const dtrace_pattr_t dt_lockstat_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

/* ==== Probe context ================================================== */

static unsigned int dt_ls_hash(struct task_struct *t, void *lock)
{
	return hash_long((unsigned long)t ^ (unsigned long)lock, DT_LS_BITS);
}

/* The slot of (current, lock), or NULL. */
static struct dt_ls_wait *dt_ls_find(void *lock)
{
	unsigned int h = dt_ls_hash(current, lock), i;
	struct dt_ls_wait *w;

	for (i = 0; i < DT_LS_PROBES; i++) {
		w = &dt_ls_waits[(h + i) & (DT_LS_SLOTS - 1)];
		if (READ_ONCE(w->task) == current && READ_ONCE(w->lock) == lock)
			return w;
	}
	return NULL;
}

static void dt_lockstat_begin(void *data, void *lock, unsigned int flags)
{
	unsigned int h, i;
	struct dt_ls_wait *w = dt_ls_find(lock);

	for (i = 0, h = dt_ls_hash(current, lock); !w && i < DT_LS_PROBES; i++) {
		w = &dt_ls_waits[(h + i) & (DT_LS_SLOTS - 1)];
		if (READ_ONCE(w->task) || cmpxchg(&w->task, NULL, current) != NULL)
			w = NULL;
	}
	if (!w)
		return;		/* full: this wait is not timed */
	w->flags = flags;
	w->start = ktime_get_mono_fast_ns();
	WRITE_ONCE(w->lock, lock);
}

static void dt_lockstat_end(void *data, void *lock, int ret)
{
	struct dt_ls_wait *w = dt_ls_find(lock);
	unsigned int i, flags;
	dtrace_id_t id;
	u64 start;

	if (!w)
		return;
	start = w->start;
	flags = w->flags & DT_LCB_ALL;
	WRITE_ONCE(w->lock, NULL);
	smp_store_release(&w->task, NULL);
	if (ret != 0)
		return;		/* the wait ended without the lock */
	for (i = 0; i < DT_P_N; i++) {
		if (dt_lockstat_probes[i].flags != flags)
			continue;
		id = READ_ONCE(dt_lockstat_on[i]);
		if (id)
			dtrace_probe(id, (uintptr_t)lock, ktime_get_mono_fast_ns() - start,
				     0, 0, 0, 0);
		return;
	}
}

/* ==== Tracepoints ==================================================== */

static struct dtrace_tp dt_lockstat_tps[DT_TP_N] = {
	[DT_TP_BEGIN] = { "contention_begin", dt_lockstat_begin },
	[DT_TP_END] = { "contention_end", dt_lockstat_end },
};

/* ==== Provider operations ============================================ */

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_lockstat_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	if (!dt_lockstat_tps[DT_TP_BEGIN].tp || !dt_lockstat_tps[DT_TP_END].tp)
		return;
	for (i = 0; i < DT_P_N; i++)
		dtrace_probe_create(dt_lockstat_id, "vmlinux", dt_lockstat_probes[i].func,
				    dt_lockstat_probes[i].name, 1, DTRACE_PARG(i));
	provided = true;
}

static int dt_lockstat_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	/* No handler runs while nothing is enabled: begins left by the last
	 * enabling (their ends came after it) go. */
	if (dt_lockstat_nenabled == 0)
		memset(dt_ls_waits, 0, sizeof(dt_ls_waits));
	err = dtrace_tp_get(&dt_lockstat_tps[DT_TP_END]);
	if (err)
		return err;
	err = dtrace_tp_get(&dt_lockstat_tps[DT_TP_BEGIN]);
	if (err) {
		dtrace_tp_put(&dt_lockstat_tps[DT_TP_END]);
		return err;
	}
	dt_lockstat_nenabled++;
	WRITE_ONCE(dt_lockstat_on[i], id);
	return 0;
}

static void dt_lockstat_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);

	if (i >= DT_P_N)
		return;
	WRITE_ONCE(dt_lockstat_on[i], 0);
	dtrace_tp_put(&dt_lockstat_tps[DT_TP_BEGIN]);
	dtrace_tp_put(&dt_lockstat_tps[DT_TP_END]);
	dt_lockstat_nenabled--;
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

MODULE_DESCRIPTION("DTrace lockstat provider: lock contention tracepoints");
MODULE_LICENSE("GPL");
