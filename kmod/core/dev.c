// SPDX-License-Identifier: GPL-2.0
/*
 * dev.c - /dev/dtrace (a misc device) and its ioctls (uapi/dtrace/ioctl.h),
 * and the module's init and exit.
 *
 *   open     CAP_SYS_ADMIN; a new consumer state; a reference on every
 *            provider module (registry.c pins); providers asked to provide
 *   ioctl    CONF PROVIDER PROBES PROBEMATCH PROBEARG: registry queries;
 *            ENABLE EPROBE GO STOP STATUS BUFSNAP AGGSNAP: the state's,
 *            serialized by its mutex
 *   release  the state is torn down (state.c), whatever it was doing:
 *            a consumer killed mid-trace leaves nothing enabled behind
 *
 * .owner = THIS_MODULE keeps dtrace.ko loaded while a consumer has the
 * device open; provider modules pin it through their symbol imports.
 */
#define pr_fmt(fmt) "dtrace: " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "dtrace_impl.h"

#include <uapi/dtrace/abi_sizes.h>
#include <uapi/dtrace/actions.h>
#include <uapi/dtrace/dif.h>
#include <uapi/dtrace/ioctl.h>

bool dtrace_attached;

static int dtrace_open(struct inode *inode, struct file *file)
{
	struct dtrace_state *state;
	int err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	state = dtrace_state_create();
	if (!state)
		return -ENOMEM;
	mutex_lock(&dtrace_provider_lock);
	err = dtrace_pins_open(state);
	if (err) {
		mutex_unlock(&dtrace_provider_lock);
		kfree(state);
		return err;
	}
	mutex_lock(&dtrace_lock);
	list_add(&state->list, &dtrace_states);
	mutex_unlock(&dtrace_lock);
	dtrace_nopen++;
	mutex_unlock(&dtrace_provider_lock);

	dtrace_provide_all(NULL);
	file->private_data = state;
	return 0;
}

static int dtrace_release(struct inode *inode, struct file *file)
{
	struct dtrace_state *state = file->private_data;

	mutex_lock(&dtrace_provider_lock);
	dtrace_nopen--;
	mutex_unlock(&dtrace_provider_lock);
	dtrace_state_destroy(state);
	return 0;
}

static bool dtrace_desc_ok(const dtrace_probedesc_t *d)
{
	return strnlen(d->dtpd_provider, sizeof(d->dtpd_provider)) < sizeof(d->dtpd_provider) &&
	       strnlen(d->dtpd_mod, sizeof(d->dtpd_mod)) < sizeof(d->dtpd_mod) &&
	       strnlen(d->dtpd_func, sizeof(d->dtpd_func)) < sizeof(d->dtpd_func) &&
	       strnlen(d->dtpd_name, sizeof(d->dtpd_name)) < sizeof(d->dtpd_name);
}

static long dtrace_ioc_conf(void __user *uarg)
{
	dtrace_conf_t c = {
		.dtc_abi_version = DTRACE_IOCTL_VERSION,
		.dtc_difversion = DIF_VERSION,
		.dtc_difintregs = DIF_DIR_NREGS,
		.dtc_diftupregs = DIF_DTR_NREGS,
		.dtc_ncpus = nr_cpu_ids,
		.dtc_max_difo_len = DTRACE_MAX_DIFO_LEN,
		.dtc_max_prog_size = DTRACE_MAX_PROG_SIZE,
		.dtc_max_ecbs = DTRACE_MAX_ECBS,
		.dtc_max_bufsize = DTRACE_MAX_BUFSIZE,
		.dtc_max_dynvarsize = DTRACE_MAX_DYNVARSIZE,
	};

	c.dtc_nprobes = dtrace_nprobes();
	c.dtc_nproviders = dtrace_nproviders();
	return copy_to_user(uarg, &c, sizeof(c)) ? -EFAULT : 0;
}

static long dtrace_ioc_provider(void __user *uarg)
{
	dtrace_providerdesc_t d;
	struct dtrace_provider *prov;

	if (copy_from_user(&d, uarg, sizeof(d)))
		return -EFAULT;
	if (strnlen(d.dtvd_name, sizeof(d.dtvd_name)) == sizeof(d.dtvd_name))
		return -EINVAL;
	mutex_lock(&dtrace_provider_lock);
	prov = dtrace_provider_find(d.dtvd_name, d.dtvd_id);
	if (prov) {
		memset(&d, 0, sizeof(d));
		d.dtvd_id = prov->id;
		d.dtvd_priv = prov->priv;
		strscpy(d.dtvd_name, prov->name, sizeof(d.dtvd_name));
		d.dtvd_attr = prov->attr;
		d.dtvd_nprobes = prov->nprobes;
	}
	mutex_unlock(&dtrace_provider_lock);
	if (!prov)
		return -ESRCH;
	return copy_to_user(uarg, &d, sizeof(d)) ? -EFAULT : 0;
}

static long dtrace_ioc_probes(void __user *uarg, bool match)
{
	dtrace_probedesc_t d;
	struct dtrace_probe *p;

	if (copy_from_user(&d, uarg, sizeof(d)))
		return -EFAULT;
	if (!dtrace_desc_ok(&d))
		return -EINVAL;
	if (match && d.dtpd_id <= 1)
		dtrace_provide_all(&d);
	mutex_lock(&dtrace_lock);
	p = dtrace_probe_next(d.dtpd_id, match ? &d : NULL);
	if (p) {
		memset(&d, 0, sizeof(d));
		d.dtpd_id = p->id;
		d.dtpd_provid = p->prov->id;
		strscpy(d.dtpd_provider, p->prov->name, sizeof(d.dtpd_provider));
		strscpy(d.dtpd_mod, p->mod, sizeof(d.dtpd_mod));
		strscpy(d.dtpd_func, p->func, sizeof(d.dtpd_func));
		strscpy(d.dtpd_name, p->name, sizeof(d.dtpd_name));
	}
	mutex_unlock(&dtrace_lock);
	if (!p)
		return -ESRCH;
	return copy_to_user(uarg, &d, sizeof(d)) ? -EFAULT : 0;
}

static long dtrace_ioc_probearg(void __user *uarg)
{
	dtrace_argdesc_t d;
	struct dtrace_provider *prov = NULL;
	struct dtrace_probe *p;
	void *parg = NULL;

	if (copy_from_user(&d, uarg, sizeof(d)))
		return -EFAULT;
	memset(d.dtargd_native, 0, sizeof(d.dtargd_native));
	memset(d.dtargd_xlate, 0, sizeof(d.dtargd_xlate));
	d.dtargd_mapping = DTRACE_ARGNONE;
	d.dtargd_pad = 0;

	/* The provider lock keeps the provider and its probes alive across the hook. */
	mutex_lock(&dtrace_provider_lock);
	mutex_lock(&dtrace_lock);
	p = xa_load(&dtrace_probes, d.dtargd_id);
	if (p) {
		prov = p->prov;
		parg = p->arg;
	}
	mutex_unlock(&dtrace_lock);
	if (prov && prov->pops->dtps_getargdesc && !prov->defunct)
		prov->pops->dtps_getargdesc(prov->arg, d.dtargd_id, parg, &d);
	mutex_unlock(&dtrace_provider_lock);
	if (!p)
		return -ESRCH;
	d.dtargd_native[sizeof(d.dtargd_native) - 1] = '\0';
	d.dtargd_xlate[sizeof(d.dtargd_xlate) - 1] = '\0';
	return copy_to_user(uarg, &d, sizeof(d)) ? -EFAULT : 0;
}

static long dtrace_ioc_eprobe(struct dtrace_state *state, void __user *uarg)
{
	dtrace_eprobedesc_t d;
	const struct dtrace_ecb *ecb;

	if (copy_from_user(&d, uarg, sizeof(d)))
		return -EFAULT;
	if (d.dtpe_epid == 0 || d.dtpe_epid > state->necbs)
		return -ESRCH;
	ecb = state->ecbs[d.dtpe_epid - 1];
	d.dtpe_probeid = ecb->probe->id;
	d.dtpe_ecb = ecb->clause->cookie;
	d.dtpe_size = ecb->clause->size;
	return copy_to_user(uarg, &d, sizeof(d)) ? -EFAULT : 0;
}

static long dtrace_ioc_state(struct dtrace_state *state, unsigned int cmd, void __user *uarg)
{
	dtrace_enable_t en;
	dtrace_status_t st;
	dtrace_bufdesc_t bd;
	u32 cpu = 0;
	long err;

	switch (cmd) {
	case DTRACEIOC_ENABLE:
		if (copy_from_user(&en, uarg, sizeof(en)))
			return -EFAULT;
		err = dtrace_enable(state, &en);
		if (copy_to_user(uarg, &en, sizeof(en)))
			return -EFAULT;
		return err;
	case DTRACEIOC_EPROBE:
		return dtrace_ioc_eprobe(state, uarg);
	case DTRACEIOC_GO:
	case DTRACEIOC_STOP:
		err = cmd == DTRACEIOC_GO ? dtrace_state_go(state, &cpu) :
					    dtrace_state_stop(state, &cpu);
		if (err)
			return err;
		return put_user(cpu, (u32 __user *)uarg);
	case DTRACEIOC_STATUS:
		dtrace_state_status(state, &st);
		return copy_to_user(uarg, &st, sizeof(st)) ? -EFAULT : 0;
	case DTRACEIOC_BUFSNAP:
	case DTRACEIOC_AGGSNAP:
		if (copy_from_user(&bd, uarg, sizeof(bd)))
			return -EFAULT;
		if (state->activity == DTRACE_ACTIVITY_INACTIVE)
			return -EINVAL;
		err = dtrace_buffer_snap(state, &bd, cmd == DTRACEIOC_AGGSNAP);
		if (err)
			return err;
		return copy_to_user(uarg, &bd, sizeof(bd)) ? -EFAULT : 0;
	}
	return -ENOTTY;
}

static long dtrace_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct dtrace_state *state = file->private_data;
	void __user *uarg = (void __user *)arg;
	long err;

	switch (cmd) {
	case DTRACEIOC_CONF:
		return dtrace_ioc_conf(uarg);
	case DTRACEIOC_PROVIDER:
		return dtrace_ioc_provider(uarg);
	case DTRACEIOC_PROBES:
		return dtrace_ioc_probes(uarg, false);
	case DTRACEIOC_PROBEMATCH:
		return dtrace_ioc_probes(uarg, true);
	case DTRACEIOC_PROBEARG:
		return dtrace_ioc_probearg(uarg);
	}
	mutex_lock(&state->lock);
	err = dtrace_ioc_state(state, cmd, uarg);
	mutex_unlock(&state->lock);
	return err;
}

static const struct file_operations dtrace_fops = {
	.owner = THIS_MODULE,
	.open = dtrace_open,
	.release = dtrace_release,
	.unlocked_ioctl = dtrace_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice dtrace_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = DTRACE_DEVICE_NAME,
	.fops = &dtrace_fops,
	.mode = 0600,
};

/* The structs userspace hands us have the sizes both sides were built for. */
static void __init dtrace_abi_check(void)
{
#define DTRACE_ABI_CHECK(type, size) BUILD_BUG_ON(sizeof(type) != (size));
	DTRACE_ABI_SIZES(DTRACE_ABI_CHECK)
#undef DTRACE_ABI_CHECK
}

static int __init dtrace_init(void)
{
	int err;

	dtrace_abi_check();

	err = dtrace_registry_init();
	if (err)
		return err;
	err = dtrace_provider_init();
	if (err)
		goto out_registry;
	err = misc_register(&dtrace_misc);
	if (err)
		goto out_provider;
	dtrace_attached = true;
	pr_info("loaded (provider API %d, ioctl ABI %d)\n", DTRACE_PROVIDER_API_VERSION,
		DTRACE_IOCTL_VERSION);
	return 0;

out_provider:
	dtrace_provider_exit();
out_registry:
	dtrace_registry_exit();
	return err;
}

static void __exit dtrace_exit(void)
{
	dtrace_attached = false;
	misc_deregister(&dtrace_misc);
	dtrace_provider_exit();
	dtrace_registry_exit();
	pr_info("unloaded\n");
}

module_init(dtrace_init);
module_exit(dtrace_exit);

MODULE_DESCRIPTION("DTrace core: provider API, DIF VM, ECBs, buffers, /dev/dtrace");
MODULE_LICENSE("GPL");
