// SPDX-License-Identifier: GPL-2.0
/*
 * dt_test.c - the core's test provider (in the spirit of Oracle's dt_test
 * and dt_perf): one probe, dt_test:dt_test:fire:test, fired on demand.
 *
 *   /sys/kernel/debug/dt_test/fire     write "N [a0 ... a5]": fire the
 *                                      probe N times with those arguments
 *                                      (from the writer's context)
 *   /sys/kernel/debug/dt_test/enabled  1 while the core has it enabled
 *   /sys/kernel/debug/dt_test/fired    calls made to dtrace_probe()
 *
 * Arguments 6-9 come from getargval (1000 + the argument number), so the
 * core's getargval path is exercised; getargdesc types them int64_t /
 * uint64_t. The provider is the smallest complete shape of a provider
 * module: register in init, provide, enable/disable, unregister in exit.
 */
#define pr_fmt(fmt) "dt_test: " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <dtrace/provider.h>

static dtrace_provider_id_t dt_test_id;
static dtrace_id_t dt_test_probe;
static u32 dt_test_enabled;
static u64 dt_test_fired;
static struct dentry *dt_test_dir;

static const dtrace_pattr_t dt_test_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

static void dt_test_provide(void *arg, const dtrace_probedesc_t *desc)
{
	if (dtrace_probe_lookup(dt_test_id, "dt_test", "fire", "test"))
		return;
	dt_test_probe = dtrace_probe_create(dt_test_id, "dt_test", "fire", "test", 0, NULL);
}

static int dt_test_enable(void *arg, dtrace_id_t id, void *parg)
{
	WRITE_ONCE(dt_test_enabled, 1);
	return 0;
}

static void dt_test_disable(void *arg, dtrace_id_t id, void *parg)
{
	WRITE_ONCE(dt_test_enabled, 0);
}

static void dt_test_getargdesc(void *arg, dtrace_id_t id, void *parg, dtrace_argdesc_t *desc)
{
	if (desc->dtargd_ndx >= DTRACE_MAXARGS)
		return;
	strscpy(desc->dtargd_native, desc->dtargd_ndx < DTRACE_PROBE_NARGS ? "int64_t" :
		"uint64_t", sizeof(desc->dtargd_native));
	desc->dtargd_mapping = desc->dtargd_ndx;
}

/* Probe context: no locks, no faults. */
static u64 dt_test_getargval(void *arg, dtrace_id_t id, void *parg, int argno, int aframes)
{
	return 1000 + argno;
}

static const dtrace_pops_t dt_test_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_test_provide,
	.dtps_enable = dt_test_enable,
	.dtps_disable = dt_test_disable,
	.dtps_getargdesc = dt_test_getargdesc,
	.dtps_getargval = dt_test_getargval,
};

static ssize_t dt_test_fire_write(struct file *file, const char __user *ubuf, size_t len,
				  loff_t *ppos)
{
	char buf[256];
	u64 n = 0, a[DTRACE_PROBE_NARGS] = { 0 }, i;
	int got;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	got = sscanf(buf, "%llu %lli %lli %lli %lli %lli %lli", &n, &a[0], &a[1], &a[2], &a[3],
		     &a[4], &a[5]);
	if (got < 1 || n > 100000000)
		return -EINVAL;
	if (!dt_test_probe)	/* not provided yet: no consumer ever looked */
		return len;
	for (i = 0; i < n; i++) {
		dtrace_probe(dt_test_probe, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (!(i & 1023))
			cond_resched();
	}
	dt_test_fired += n;
	return len;
}

static const struct file_operations dt_test_fire_fops = {
	.owner = THIS_MODULE,
	.write = dt_test_fire_write,
	.llseek = noop_llseek,
};

static int __init dt_test_init(void)
{
	int err;

	err = dtrace_register("dt_test", &dt_test_attr, DTRACE_PRIV_USER, &dt_test_pops, NULL,
			      &dt_test_id);
	if (err)
		return err;
	/* The probe is created by dt_test_provide, which the core calls. */
	dt_test_dir = debugfs_create_dir("dt_test", NULL);
	debugfs_create_file("fire", 0200, dt_test_dir, NULL, &dt_test_fire_fops);
	debugfs_create_u32("enabled", 0444, dt_test_dir, &dt_test_enabled);
	debugfs_create_u64("fired", 0444, dt_test_dir, &dt_test_fired);
	pr_info("loaded\n");
	return 0;
}

static void __exit dt_test_exit(void)
{
	debugfs_remove_recursive(dt_test_dir);
	/* Cannot fail: the core holds our module while anything uses the probe. */
	WARN_ON(dtrace_unregister(dt_test_id));
	pr_info("unloaded\n");
}

module_init(dt_test_init);
module_exit(dt_test_exit);

MODULE_DESCRIPTION("DTrace test provider: a probe fired on demand");
MODULE_LICENSE("GPL");
