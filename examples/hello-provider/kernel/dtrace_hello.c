// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_hello.c - the kernel half of the hello example provider, built
 * out of tree against the installed DTrace SDK (<dtrace/provider.h> from
 * <prefix>/include/dtrace/kmod, the core's symbols from the Module.symvers
 * installed with dtrace.ko). It fires the probes that hello_plugin.cc, the
 * userspace half, describes; the "demo application" is this module:
 *
 *   hello:demo:greet:entry   greet(who, times) called: arg0 = who (a kernel
 *                            string), arg1 = times
 *   hello:demo:greet:return  greet returns: arg0 = times * strlen(who)
 *   hello:demo:tick:fire     every 100 ms while enabled: arg0 = n, 1, 2, ...
 *
 * greet() runs once for each write of "WHO TIMES" to
 * /sys/kernel/debug/hello/greet. The tick runs in a delayed work item that
 * only exists while a consumer has the probe enabled.
 */
#define pr_fmt(fmt) "dtrace_hello: " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <dtrace/provider.h>

enum hello_probe { HELLO_GREET_ENTRY, HELLO_GREET_RETURN, HELLO_TICK_FIRE, HELLO_NPROBES };

static const struct {
	const char *func, *name;
} hello_sites[HELLO_NPROBES] = {
	[HELLO_GREET_ENTRY] = { "greet", "entry" },
	[HELLO_GREET_RETURN] = { "greet", "return" },
	[HELLO_TICK_FIRE] = { "tick", "fire" },
};

static dtrace_provider_id_t hello_id;
static dtrace_id_t hello_ids[HELLO_NPROBES];
static struct dentry *hello_dir;
static DEFINE_MUTEX(hello_greet_lock);

static bool hello_tick_on;
static u64 hello_tick_n;
static void hello_tick(struct work_struct *work);
static DECLARE_DELAYED_WORK(hello_tick_work, hello_tick);

/* The attributes the userspace half declares (hello_plugin.cc). */
static const dtrace_pattr_t hello_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
};

/* The core serializes calls; the probes exist from the first one on. */
static void hello_provide(void *arg, const dtrace_probedesc_t *desc)
{
	int i;

	for (i = 0; i < HELLO_NPROBES; i++) {
		if (hello_ids[i])
			continue;
		WRITE_ONCE(hello_ids[i], dtrace_probe_create(hello_id, "demo", hello_sites[i].func,
							     hello_sites[i].name, 0,
							     (void *)(uintptr_t)i));
	}
}

static int hello_enable(void *arg, dtrace_id_t id, void *parg)
{
	if ((uintptr_t)parg == HELLO_TICK_FIRE) {
		WRITE_ONCE(hello_tick_on, true);
		schedule_delayed_work(&hello_tick_work, msecs_to_jiffies(100));
	}
	return 0;
}

static void hello_disable(void *arg, dtrace_id_t id, void *parg)
{
	if ((uintptr_t)parg == HELLO_TICK_FIRE) {
		/* After this, hello_tick() neither runs nor requeues itself. */
		WRITE_ONCE(hello_tick_on, false);
		cancel_delayed_work_sync(&hello_tick_work);
	}
}

static const dtrace_pops_t hello_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = hello_provide,
	.dtps_enable = hello_enable,
	.dtps_disable = hello_disable,
};

static void hello_fire(enum hello_probe p, u64 a0, u64 a1)
{
	dtrace_id_t id = READ_ONCE(hello_ids[p]);

	if (id)
		dtrace_probe(id, a0, a1, 0, 0, 0, 0);
}

static void hello_tick(struct work_struct *work)
{
	if (!READ_ONCE(hello_tick_on))
		return;
	hello_fire(HELLO_TICK_FIRE, ++hello_tick_n, 0);
	schedule_delayed_work(&hello_tick_work, msecs_to_jiffies(100));
}

/* The demo application's function with the greet probes. */
static noinline int greet(const char *who, int times)
{
	int rv;

	hello_fire(HELLO_GREET_ENTRY, (uintptr_t)who, times);
	rv = times * (int)strlen(who);
	hello_fire(HELLO_GREET_RETURN, rv, 0);
	return rv;
}

static ssize_t hello_greet_write(struct file *file, const char __user *ubuf, size_t len,
				 loff_t *ppos)
{
	char buf[64], who[32];
	int times;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%31s %d", who, &times) != 2)
		return -EINVAL;
	mutex_lock(&hello_greet_lock);
	greet(who, times);
	mutex_unlock(&hello_greet_lock);
	return len;
}

static const struct file_operations hello_greet_fops = {
	.owner = THIS_MODULE,
	.write = hello_greet_write,
	.llseek = noop_llseek,
};

static int __init hello_init(void)
{
	int err;

	err = dtrace_register("hello", &hello_attr, DTRACE_PRIV_KERNEL, &hello_pops, NULL,
			      &hello_id);
	if (err)
		return err;
	hello_dir = debugfs_create_dir("hello", NULL);
	debugfs_create_file("greet", 0200, hello_dir, NULL, &hello_greet_fops);
	return 0;
}

static void __exit hello_exit(void)
{
	debugfs_remove_recursive(hello_dir);
	/* Cannot fail: the core holds this module while a probe is enabled. */
	WARN_ON(dtrace_unregister(hello_id));
}

module_init(hello_init);
module_exit(hello_exit);

MODULE_DESCRIPTION("DTrace example provider (hello), built against the installed SDK");
MODULE_LICENSE("GPL");
