// SPDX-License-Identifier: GPL-2.0
/*
 * dt_perf.c - the probe overhead benchmark's provider (in the spirit of
 * Oracle's dt_perf): one probe, dt_perf:dt_perf:loop:fire, fired in a
 * tight loop on demand, timing the loop in the kernel; and a second probe,
 * dt_perf:dt_perf:loop:bare, that the benchmark never enables: the cost of
 * a probe without ECBs, measured beside each enabled row.
 *
 *   /sys/kernel/debug/dt_perf/fire     write "N": call dtrace_probe() N
 *                                      times (arg0 = i, arg1-5 = 1 ... 5)
 *                                      from the writer's context
 *   /sys/kernel/debug/dt_perf/bare     write "N": the same loop firing
 *                                      dt_perf:::bare (never enabled)
 *   /sys/kernel/debug/dt_perf/loop     write "N": the same loop calling an
 *                                      empty function instead (the loop's
 *                                      own cost, the baseline)
 *   /sys/kernel/debug/dt_perf/last     read "N NS": the last loop's length
 *                                      and its elapsed time (ktime_get_ns)
 *   /sys/kernel/debug/dt_perf/enabled  1 while the core has the probe enabled
 *
 * The probe is created at load, so that firing it with no consumer
 * measures dtrace_probe() on a probe without ECBs. The loop yields every
 * 1024 iterations (cond_resched) in both modes; bench/kmod_probe_bench.cc
 * drives it, tests/vm/kmod-perf-guest.sh checks that every firing counts.
 */
#define pr_fmt(fmt) "dt_perf: " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#include <dtrace/provider.h>

#define DT_PERF_MAX	100000000ULL

/* What a write to each file runs (its inode's data). */
#define DT_PERF_FIRE	0	/* dtrace_probe(dt_perf:::fire) */
#define DT_PERF_BARE	1	/* dtrace_probe(dt_perf:::bare), never enabled */
#define DT_PERF_LOOP	2	/* the empty function */

static dtrace_provider_id_t dt_perf_id;
static dtrace_id_t dt_perf_probe, dt_perf_bare;
static u32 dt_perf_enabled;
static struct dentry *dt_perf_dir;
static DEFINE_MUTEX(dt_perf_lock);	/* one loop at a time; last_n/last_ns */
static DEFINE_MUTEX(dt_perf_provide_lock);	/* init's provide vs the core's */
static u64 dt_perf_last_n, dt_perf_last_ns;

static const dtrace_pattr_t dt_perf_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

/*
 * Called at load (the probe must exist before any consumer opens) and by
 * the core; the mutex serializes the two (lock order: the core's provider
 * lock, then this, then the core's dtrace_lock inside lookup/create).
 */
static void dt_perf_provide(void *arg, const dtrace_probedesc_t *desc)
{
	mutex_lock(&dt_perf_provide_lock);
	if (!dtrace_probe_lookup(dt_perf_id, "dt_perf", "loop", "fire"))
		WRITE_ONCE(dt_perf_probe, dtrace_probe_create(dt_perf_id, "dt_perf", "loop",
							      "fire", 0, NULL));
	if (!dtrace_probe_lookup(dt_perf_id, "dt_perf", "loop", "bare"))
		WRITE_ONCE(dt_perf_bare, dtrace_probe_create(dt_perf_id, "dt_perf", "loop",
							     "bare", 0, NULL));
	mutex_unlock(&dt_perf_provide_lock);
}

/* "enabled" is fire's: the benchmark waits for it (bare is never enabled). */
static int dt_perf_enable(void *arg, dtrace_id_t id, void *parg)
{
	if (id == READ_ONCE(dt_perf_probe))
		WRITE_ONCE(dt_perf_enabled, 1);
	return 0;
}

static void dt_perf_disable(void *arg, dtrace_id_t id, void *parg)
{
	if (id == READ_ONCE(dt_perf_probe))
		WRITE_ONCE(dt_perf_enabled, 0);
}

static const dtrace_pops_t dt_perf_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_perf_provide,
	.dtps_enable = dt_perf_enable,
	.dtps_disable = dt_perf_disable,
};

/* The baseline's stand-in for dtrace_probe(): same arguments, no work. */
static noinline void dt_perf_nop(dtrace_id_t id, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
				 u64 a5)
{
	barrier();
}

static void dt_perf_run(void (*fn)(dtrace_id_t, u64, u64, u64, u64, u64, u64),
			dtrace_id_t id, u64 n)
{
	u64 i, t0, t1;

	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		fn(id, i, 1, 2, 3, 4, 5);
		if (!(i & 1023))
			cond_resched();
	}
	t1 = ktime_get_ns();
	dt_perf_last_n = n;
	dt_perf_last_ns = t1 - t0;
}

static ssize_t dt_perf_write(struct file *file, const char __user *ubuf, size_t len,
			     loff_t *ppos)
{
	uintptr_t mode = (uintptr_t)file->private_data;
	u64 n;
	int err;

	err = kstrtoull_from_user(ubuf, len, 10, &n);
	if (err)
		return err;
	if (n > DT_PERF_MAX)
		return -EINVAL;
	if (!READ_ONCE(dt_perf_probe) || !READ_ONCE(dt_perf_bare))
		return -ENOENT;
	mutex_lock(&dt_perf_lock);
	dt_perf_run(mode == DT_PERF_LOOP ? dt_perf_nop : dtrace_probe,
		    mode == DT_PERF_BARE ? dt_perf_bare : dt_perf_probe, n);
	mutex_unlock(&dt_perf_lock);
	return len;
}

static ssize_t dt_perf_last_read(struct file *file, char __user *ubuf, size_t len,
				 loff_t *ppos)
{
	char buf[48];
	int n;

	mutex_lock(&dt_perf_lock);
	n = scnprintf(buf, sizeof(buf), "%llu %llu\n", dt_perf_last_n, dt_perf_last_ns);
	mutex_unlock(&dt_perf_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations dt_perf_fire_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = dt_perf_write,
	.llseek = noop_llseek,
};

static const struct file_operations dt_perf_last_fops = {
	.owner = THIS_MODULE,
	.read = dt_perf_last_read,
	.llseek = default_llseek,
};

static int __init dt_perf_init(void)
{
	int err;

	err = dtrace_register("dt_perf", &dt_perf_attr, DTRACE_PRIV_USER, &dt_perf_pops, NULL,
			      &dt_perf_id);
	if (err)
		return err;
	dt_perf_provide(NULL, NULL);
	if (!dt_perf_probe || !dt_perf_bare) {
		WARN_ON(dtrace_unregister(dt_perf_id));
		return -ENOMEM;
	}
	dt_perf_dir = debugfs_create_dir("dt_perf", NULL);
	/* simple_open makes private_data the inode's data: the mode. */
	debugfs_create_file("fire", 0200, dt_perf_dir, (void *)DT_PERF_FIRE, &dt_perf_fire_fops);
	debugfs_create_file("bare", 0200, dt_perf_dir, (void *)DT_PERF_BARE, &dt_perf_fire_fops);
	debugfs_create_file("loop", 0200, dt_perf_dir, (void *)DT_PERF_LOOP, &dt_perf_fire_fops);
	debugfs_create_file("last", 0444, dt_perf_dir, NULL, &dt_perf_last_fops);
	debugfs_create_u32("enabled", 0444, dt_perf_dir, &dt_perf_enabled);
	pr_info("loaded, probe id %u\n", dt_perf_probe);
	return 0;
}

static void __exit dt_perf_exit(void)
{
	debugfs_remove_recursive(dt_perf_dir);
	/* Cannot fail: the core holds our module while anything uses the probe. */
	WARN_ON(dtrace_unregister(dt_perf_id));
	pr_info("unloaded\n");
}

module_init(dt_perf_init);
module_exit(dt_perf_exit);

MODULE_DESCRIPTION("DTrace probe overhead benchmark provider");
MODULE_LICENSE("GPL");
