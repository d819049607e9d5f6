// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_pid.c - the pid and USDT providers' kernel half: probes in user
 * processes, fired from uprobes and uretprobes (illumos fasttrap's role).
 *
 * Userspace (the probe's plugin: plugins/pid, plugins/usdt) resolves a
 * probe to an object and a file offset, and the kmod engine places it
 * through /dev/dtrace_uprobe (uapi/dtrace/uprobe.h,
 * core/engine/kmod/uprobes.hpp); this module registers the
 * probe's provider (pid1234, python1234, python) with dtrace.ko, creates
 * the probe, and registers a uprobe on the object's inode while the probe
 * is enabled:
 *
 *   kind    uprobe on                 arguments
 *   ENTRY   the function's first byte arg0-5 di si dx cx r8 r9, args 6-11 the
 *                                     stack's words after the return address
 *   INSN    any instruction           as ENTRY
 *   RETURN  the function (uretprobe)  arg0 0 (the returning instruction is
 *                                     not known), arg1 ax
 *   USDT    a stapsdt site            each from its operand: a constant, a
 *                                     register, or user memory at a
 *                                     register + displacement (+ index *
 *                                     scale), read without faulting
 *
 * Objects, and who holds what:
 *
 *   session (an open of /dev/dtrace_uprobe) ─holds─► dt_pid_prov (refs)
 *   dt_pid_prov ─ dtrace.ko provider ─ probes ─► dt_pid_probe (the parg)
 *   dt_pid_probe ─► inode (ihold), mm (mmgrab: the one process), the
 *                   uprobe_consumer the uprobe layer calls back
 *
 * A provider goes (dtrace_unregister()) when the last session holding it
 * closes; while a consumer still has one of its probes enabled that fails
 * (EBUSY) and a delayed work retries every second, as fasttrap's cleanup.
 * dtrace_unregister() destroys the probes (dtps_destroy: iput, mmdrop)
 * after they are disabled: a uprobe is registered only between
 * dtps_enable and dtps_disable, so closing a consumer, a session or
 * unloading the module leaves none behind.
 *
 * Which process: a probe placed for a pid holds that process's mm (not
 * its address space, only the struct, so its address is never reused):
 * the consumer filter installs breakpoints only in that mm, and the
 * handler fires only for current->mm == it and current's tgid (a vfork
 * child shares the mm). When the process exits no breakpoint is left
 * anywhere; the registration on the inode goes at dtps_disable. A
 * process that exec()s has a new mm: its probes stop firing, as a pid
 * provider's do on illumos.
 *
 * Locks: dt_pid_lock (a mutex) orders before dtrace.ko's provider and
 * probe locks (it is held across dtrace_register(), _probe_create() and
 * _unregister()). dtps_enable/dtps_disable run under dtrace.ko's probe
 * lock and take none of ours: a probe's place is immutable once created,
 * and its `registered` state changes only there. Probe context (the
 * uprobe handlers: process context, preemptible, may not sleep here)
 * takes no lock.
 *
 * Kernel API: uprobe_register() changed in 6.12 (it takes the reference
 * counter's offset and returns the uprobe; unregistering is
 * uprobe_unregister_nosync() + uprobe_unregister_sync(); the filter lost
 * its context argument), and 6.13 gave handlers a data pointer. Both are
 * built from LINUX_VERSION_CODE.
 */
#define pr_fmt(fmt) "dtrace_pid: " fmt

#include <linux/capability.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>
#include <linux/version.h>
#include <linux/workqueue.h>
#include <asm/ptrace.h>

#include <dtrace/provider.h>
#include <uapi/dtrace/uprobe.h>

#ifndef CONFIG_X86_64
#error "dtrace_pid: only x86-64's calling convention is wired up"
#endif
#ifndef CONFIG_UPROBES
#error "dtrace_pid: the kernel has no uprobes (CONFIG_UPROBES)"
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define DT_PID_UPROBE_HANDLE	1	/* uprobe_register() returns the uprobe */
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define DT_PID_HANDLER_DATA	, __u64 *data
#else
#define DT_PID_HANDLER_DATA
#endif

struct dt_pid_prov {
	struct list_head list;		/* on dt_pid_provs */
	char name[DTRACE_PROVNAMELEN];
	dtrace_provider_id_t id;
	unsigned int refs;		/* sessions holding it; 0: retiring */
	struct list_head probes;	/* dt_pid_probe.list */
};

struct dt_pid_probe {
	struct list_head list;		/* on prov->probes */
	dtrace_id_t id;
	struct uprobe_consumer uc;
	struct inode *inode;		/* ihold() */
	loff_t offset;
	loff_t ref_ctr_offset;
	pid_t pid;			/* as placed; 0 every process */
	pid_t tgid;			/* the process's, init namespace */
	struct mm_struct *mm;		/* mmgrab(); NULL every process */
	u32 kind;			/* enum dtrace_uprobe_kind */
	u32 nargs;
	dtrace_uprobe_arg_t args[DTRACE_UPROBE_MAXARGS];
	bool registered;		/* under dtrace.ko's probe lock */
#ifdef DT_PID_UPROBE_HANDLE
	struct uprobe *uprobe;
#endif
	char mod[DTRACE_MODNAMELEN];
	char func[DTRACE_FUNCNAMELEN];
	char name[DTRACE_NAMELEN];
};

struct dt_pid_hold {
	struct list_head list;		/* on session->holds */
	struct dt_pid_prov *prov;
};

struct dt_pid_session {
	struct list_head holds;
	unsigned int nprobes;
};

static DEFINE_MUTEX(dt_pid_lock);
static LIST_HEAD(dt_pid_provs);		/* under dt_pid_lock */

/* Arguments 6-11 of the firing in progress on this CPU (getargval). */
struct dt_pid_xargs {
	u64 v[DTRACE_MAXARGS - DTRACE_PROBE_NARGS];
};
static DEFINE_PER_CPU(struct dt_pid_xargs, dt_pid_xargs);

static void dt_pid_reap_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(dt_pid_reaper, dt_pid_reap_work);

/* illumos fasttrap's pid provider attributes (pid_attr). */
static const dtrace_pattr_t dt_pid_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
};

/* ==== Probe context ================================================== */

/* Is the task hitting the probe the process it was placed for? */
static bool dt_pid_mine(const struct dt_pid_probe *pp)
{
	return !pp->mm || (current->mm == pp->mm && current->tgid == pp->tgid);
}

static u64 dt_pid_reg(const struct pt_regs *regs, int off)
{
	/* off was checked at PLACE: a multiple of 8 inside struct pt_regs. */
	return *(const unsigned long *)((const char *)regs + off);
}

/* Truncate v to |size| bytes, sign-extending when size < 0. */
static u64 dt_pid_extend(u64 v, int size)
{
	unsigned int bits = (size < 0 ? -size : size) * 8;

	if (bits >= 64)
		return v;
	v &= (1ULL << bits) - 1;
	if (size < 0 && (v & (1ULL << (bits - 1))))
		v |= ~((1ULL << bits) - 1);
	return v;
}

/* A USDT operand's value; 0 when its memory cannot be read now. */
static u64 dt_pid_usdt_arg(const dtrace_uprobe_arg_t *a, const struct pt_regs *regs)
{
	unsigned long addr;
	u64 v = 0;

	switch (a->dtua_kind) {
	case DTRACE_UPROBE_ARG_CONST:
		v = a->dtua_value;
		break;
	case DTRACE_UPROBE_ARG_REG:
		v = dt_pid_reg(regs, a->dtua_reg);
		break;
	case DTRACE_UPROBE_ARG_MEM:
		addr = dt_pid_reg(regs, a->dtua_reg) + a->dtua_value;
		if (a->dtua_scale)
			addr += dt_pid_reg(regs, a->dtua_index) * a->dtua_scale;
		/* Little-endian: the low |size| bytes of v. */
		if (copy_from_user_nofault(&v, (const void __user *)addr,
					   a->dtua_size < 0 ? -a->dtua_size : a->dtua_size))
			return 0;
		break;
	default:
		return 0;
	}
	return dt_pid_extend(v, a->dtua_size);
}

/* A word of the user stack; 0 when it cannot be read now. */
static u64 dt_pid_stack_word(const struct pt_regs *regs, unsigned int i)
{
	u64 v;

	if (copy_from_user_nofault(&v, (const void __user *)(regs->sp + 8 * i), sizeof(v)))
		return 0;
	return v;
}

static void dt_pid_fire(const struct dt_pid_probe *pp, const u64 *a)
{
	struct dt_pid_xargs *x;

	/* The stash is this CPU's until dtrace_probe() returns. */
	preempt_disable_notrace();
	x = this_cpu_ptr(&dt_pid_xargs);
	memcpy(x->v, a + DTRACE_PROBE_NARGS, sizeof(x->v));
	dtrace_probe(pp->id, a[0], a[1], a[2], a[3], a[4], a[5]);
	preempt_enable_notrace();
}

static int dt_pid_handler(struct uprobe_consumer *uc, struct pt_regs *regs DT_PID_HANDLER_DATA)
{
	const struct dt_pid_probe *pp = container_of(uc, struct dt_pid_probe, uc);
	u64 a[DTRACE_MAXARGS] = { 0 };
	unsigned int i;

	if (!dt_pid_mine(pp))
		return 0;
	if (pp->kind == DTRACE_UPROBE_USDT) {
		for (i = 0; i < pp->nargs; i++)
			a[i] = dt_pid_usdt_arg(&pp->args[i], regs);
	} else {
		a[0] = regs->di;
		a[1] = regs->si;
		a[2] = regs->dx;
		a[3] = regs->cx;
		a[4] = regs->r8;
		a[5] = regs->r9;
		/* sp points at the return address (entry), then the 7th argument. */
		for (i = DTRACE_PROBE_NARGS; i < DTRACE_MAXARGS; i++)
			a[i] = dt_pid_stack_word(regs, i - DTRACE_PROBE_NARGS + 1);
	}
	dt_pid_fire(pp, a);
	return 0;
}

static int dt_pid_ret_handler(struct uprobe_consumer *uc, unsigned long func,
			      struct pt_regs *regs DT_PID_HANDLER_DATA)
{
	const struct dt_pid_probe *pp = container_of(uc, struct dt_pid_probe, uc);
	u64 a[DTRACE_MAXARGS] = { 0 };

	if (!dt_pid_mine(pp))
		return 0;
	a[1] = regs->ax;
	dt_pid_fire(pp, a);
	return 0;
}

/* Which processes get breakpoints: the probe's, or every one. */
#ifdef DT_PID_UPROBE_HANDLE
static bool dt_pid_filter(struct uprobe_consumer *uc, struct mm_struct *mm)
#else
static bool dt_pid_filter(struct uprobe_consumer *uc, enum uprobe_filter_ctx ctx,
			  struct mm_struct *mm)
#endif
{
	const struct dt_pid_probe *pp = container_of(uc, struct dt_pid_probe, uc);

	return !pp->mm || pp->mm == mm;
}

/* ==== Provider operations ============================================ */

/* Probes are created by PLACE, never on demand. */
static void dt_pid_provide(void *arg, const dtrace_probedesc_t *desc)
{
}

static int dt_pid_enable(void *arg, dtrace_id_t id, void *parg)
{
	struct dt_pid_probe *pp = parg;
	int err = 0;

	if (WARN_ON_ONCE(pp->registered))
		return 0;
#ifdef DT_PID_UPROBE_HANDLE
	pp->uprobe = uprobe_register(pp->inode, pp->offset, pp->ref_ctr_offset, &pp->uc);
	if (IS_ERR(pp->uprobe)) {
		err = PTR_ERR(pp->uprobe);
		pp->uprobe = NULL;
	}
#else
	if (pp->ref_ctr_offset)
		err = uprobe_register_refctr(pp->inode, pp->offset, pp->ref_ctr_offset, &pp->uc);
	else
		err = uprobe_register(pp->inode, pp->offset, &pp->uc);
#endif
	if (err) {
		pr_debug("%s:%s:%s: uprobe_register: %d\n", pp->mod, pp->func, pp->name, err);
		return err;
	}
	pp->registered = true;
	return 0;
}

/* When it returns, no handler of the probe runs or will run. */
static void dt_pid_disable(void *arg, dtrace_id_t id, void *parg)
{
	struct dt_pid_probe *pp = parg;

	if (!pp->registered)
		return;
#ifdef DT_PID_UPROBE_HANDLE
	uprobe_unregister_nosync(pp->uprobe, &pp->uc);
	uprobe_unregister_sync();
	pp->uprobe = NULL;
#else
	uprobe_unregister(pp->inode, pp->offset, &pp->uc);
#endif
	pp->registered = false;
}

static u64 dt_pid_getargval(void *arg, dtrace_id_t id, void *parg, int argno, int aframes)
{
	if (argno < DTRACE_PROBE_NARGS || argno >= DTRACE_MAXARGS)
		return 0;
	return this_cpu_ptr(&dt_pid_xargs)->v[argno - DTRACE_PROBE_NARGS];
}

static void dt_pid_probe_free(struct dt_pid_probe *pp)
{
	iput(pp->inode);
	if (pp->mm)
		mmdrop(pp->mm);
	kfree(pp);
}

/* From dtrace_unregister(): the probe is disabled and unreachable. */
static void dt_pid_destroy(void *arg, dtrace_id_t id, void *parg)
{
	struct dt_pid_probe *pp = parg;

	if (WARN_ON_ONCE(pp->registered))
		dt_pid_disable(arg, id, parg);
	dt_pid_probe_free(pp);
}

static const dtrace_pops_t dt_pid_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_pid_provide,
	.dtps_enable = dt_pid_enable,
	.dtps_disable = dt_pid_disable,
	.dtps_getargval = dt_pid_getargval,
	.dtps_destroy = dt_pid_destroy,
};

/* ==== Providers ====================================================== */

/*
 * Unregister a provider no session holds; false while a consumer has one
 * of its probes enabled (it stays listed, refs 0, for the reaper).
 */
static bool dt_pid_prov_retire(struct dt_pid_prov *prov)
{
	int err;

	lockdep_assert_held(&dt_pid_lock);
	err = dtrace_unregister(prov->id);
	if (err == -EBUSY || err == -ENOMEM)
		return false;
	WARN_ON_ONCE(err);
	list_del(&prov->list);
	kfree(prov);
	return true;
}

static void dt_pid_reap_work(struct work_struct *work)
{
	struct dt_pid_prov *prov, *tmp;
	bool again = false;

	mutex_lock(&dt_pid_lock);
	list_for_each_entry_safe(prov, tmp, &dt_pid_provs, list)
		if (prov->refs == 0 && !dt_pid_prov_retire(prov))
			again = true;
	mutex_unlock(&dt_pid_lock);
	if (again)
		schedule_delayed_work(&dt_pid_reaper, HZ);
}

static struct dt_pid_prov *dt_pid_prov_find(const char *name)
{
	struct dt_pid_prov *prov;

	lockdep_assert_held(&dt_pid_lock);
	list_for_each_entry(prov, &dt_pid_provs, list)
		if (!strcmp(prov->name, name))
			return prov;
	return NULL;
}

/* The provider named name, registered if new (refs 0: the caller holds it). */
static struct dt_pid_prov *dt_pid_prov_get(const char *name)
{
	struct dt_pid_prov *prov;
	int err;

	lockdep_assert_held(&dt_pid_lock);
	prov = dt_pid_prov_find(name);
	if (prov)
		return prov;
	prov = kzalloc(sizeof(*prov), GFP_KERNEL);
	if (!prov)
		return ERR_PTR(-ENOMEM);
	strscpy(prov->name, name, sizeof(prov->name));
	INIT_LIST_HEAD(&prov->probes);
	err = dtrace_register(name, &dt_pid_attr, DTRACE_PRIV_USER, &dt_pid_pops, prov,
			      &prov->id);
	if (err) {
		kfree(prov);
		return ERR_PTR(err);
	}
	list_add_tail(&prov->list, &dt_pid_provs);
	return prov;
}

/* The session holds prov (once). */
static int dt_pid_hold(struct dt_pid_session *s, struct dt_pid_prov *prov)
{
	struct dt_pid_hold *h;

	lockdep_assert_held(&dt_pid_lock);
	list_for_each_entry(h, &s->holds, list)
		if (h->prov == prov)
			return 0;
	h = kmalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->prov = prov;
	prov->refs++;
	list_add(&h->list, &s->holds);
	return 0;
}

/* ==== Placing probes ================================================= */

static bool dt_pid_name_ok(const char *s, size_t size, bool empty_ok)
{
	size_t n = strnlen(s, size);

	return n < size && (empty_ok || n > 0);
}

static bool dt_pid_regoff_ok(int off)
{
	return off >= 0 && off % sizeof(unsigned long) == 0 &&
	       off + sizeof(unsigned long) <= sizeof(struct pt_regs);
}

static bool dt_pid_arg_ok(const dtrace_uprobe_arg_t *a)
{
	int n = a->dtua_size < 0 ? -a->dtua_size : a->dtua_size;

	if (a->dtua_pad || (n != 1 && n != 2 && n != 4 && n != 8))
		return false;
	switch (a->dtua_kind) {
	case DTRACE_UPROBE_ARG_CONST:
		return true;
	case DTRACE_UPROBE_ARG_REG:
		return dt_pid_regoff_ok(a->dtua_reg);
	case DTRACE_UPROBE_ARG_MEM:
		if (!dt_pid_regoff_ok(a->dtua_reg))
			return false;
		if (a->dtua_scale == 0)
			return true;
		return (a->dtua_scale == 1 || a->dtua_scale == 2 || a->dtua_scale == 4 ||
			a->dtua_scale == 8) && dt_pid_regoff_ok(a->dtua_index);
	default:
		return false;
	}
}

static int dt_pid_place_ok(const dtrace_uprobe_place_t *pl)
{
	u32 i;

	if (!dt_pid_name_ok(pl->dtup_provider, sizeof(pl->dtup_provider), false) ||
	    !dt_pid_name_ok(pl->dtup_mod, sizeof(pl->dtup_mod), true) ||
	    !dt_pid_name_ok(pl->dtup_func, sizeof(pl->dtup_func), true) ||
	    !dt_pid_name_ok(pl->dtup_name, sizeof(pl->dtup_name), false))
		return -EINVAL;
	if (pl->dtup_pad || pl->dtup_pid < 0 || pl->dtup_kind < DTRACE_UPROBE_ENTRY ||
	    pl->dtup_kind > DTRACE_UPROBE_USDT || pl->dtup_offset > LLONG_MAX ||
	    pl->dtup_ref_ctr_offset > LLONG_MAX)
		return -EINVAL;
	if (pl->dtup_nargs > DTRACE_UPROBE_MAXARGS ||
	    (pl->dtup_kind != DTRACE_UPROBE_USDT && pl->dtup_nargs))
		return -EINVAL;
	for (i = 0; i < pl->dtup_nargs; i++)
		if (!dt_pid_arg_ok(&pl->dtup_args[i]))
			return -EINVAL;
	for (; i < DTRACE_UPROBE_MAXARGS; i++)
		if (memchr_inv(&pl->dtup_args[i], 0, sizeof(pl->dtup_args[i])))
			return -EINVAL;
	return 0;
}

/* A new probe from pl: its inode and process found and held. */
static struct dt_pid_probe *dt_pid_probe_new(const dtrace_uprobe_place_t *pl)
{
	struct dt_pid_probe *pp;
	struct task_struct *task;
	struct mm_struct *mm;
	struct file *file;
	struct pid *pid;
	int err;

	pp = kzalloc(sizeof(*pp), GFP_KERNEL);
	if (!pp)
		return ERR_PTR(-ENOMEM);
	file = fget(pl->dtup_fd);
	if (!file) {
		err = -EBADF;
		goto out_free;
	}
	if (!S_ISREG(file_inode(file)->i_mode)) {
		fput(file);
		err = -EINVAL;
		goto out_free;
	}
	pp->inode = file_inode(file);
	ihold(pp->inode);
	fput(file);

	if (pl->dtup_pid) {
		pid = find_get_pid(pl->dtup_pid);
		task = pid ? get_pid_task(pid, PIDTYPE_TGID) : NULL;
		put_pid(pid);
		if (!task) {
			err = -ESRCH;
			goto out_iput;
		}
		mm = get_task_mm(task);
		pp->tgid = task->tgid;
		put_task_struct(task);
		if (!mm) {
			err = -ESRCH;
			goto out_iput;
		}
		mmgrab(mm);
		mmput(mm);
		pp->mm = mm;
	}
	pp->pid = pl->dtup_pid;
	pp->offset = pl->dtup_offset;
	pp->ref_ctr_offset = pl->dtup_ref_ctr_offset;
	pp->kind = pl->dtup_kind;
	pp->nargs = pl->dtup_nargs;
	memcpy(pp->args, pl->dtup_args, sizeof(pp->args));
	strscpy(pp->mod, pl->dtup_mod, sizeof(pp->mod));
	strscpy(pp->func, pl->dtup_func, sizeof(pp->func));
	strscpy(pp->name, pl->dtup_name, sizeof(pp->name));
	if (pp->kind == DTRACE_UPROBE_RETURN)
		pp->uc.ret_handler = dt_pid_ret_handler;
	else
		pp->uc.handler = dt_pid_handler;
	pp->uc.filter = dt_pid_filter;
	return pp;

out_iput:
	iput(pp->inode);
out_free:
	kfree(pp);
	return ERR_PTR(err);
}

/* Is the existing probe old at the place pp describes? */
static bool dt_pid_same_place(const struct dt_pid_probe *old, const struct dt_pid_probe *pp)
{
	return old->inode == pp->inode && old->offset == pp->offset &&
	       old->ref_ctr_offset == pp->ref_ctr_offset && old->mm == pp->mm &&
	       old->kind == pp->kind && old->nargs == pp->nargs &&
	       !memcmp(old->args, pp->args, sizeof(pp->args));
}

static int dt_pid_place(struct dt_pid_session *s, dtrace_uprobe_place_t *pl)
{
	struct dt_pid_probe *pp, *old;
	struct dt_pid_prov *prov;
	int err;

	err = dt_pid_place_ok(pl);
	if (err)
		return err;
	pp = dt_pid_probe_new(pl);
	if (IS_ERR(pp))
		return PTR_ERR(pp);

	mutex_lock(&dt_pid_lock);
	if (s->nprobes >= DTRACE_UPROBE_MAXPROBES) {
		err = -EMFILE;
		goto out_free;
	}
	prov = dt_pid_prov_get(pl->dtup_provider);
	if (IS_ERR(prov)) {
		err = PTR_ERR(prov);
		goto out_free;
	}
	list_for_each_entry(old, &prov->probes, list) {
		if (strcmp(old->mod, pp->mod) || strcmp(old->func, pp->func) ||
		    strcmp(old->name, pp->name))
			continue;
		if (!dt_pid_same_place(old, pp)) {
			err = -EEXIST;
			goto out_unused;
		}
		err = dt_pid_hold(s, prov);
		if (err)
			goto out_unused;
		pl->dtup_id = old->id;
		s->nprobes++;
		mutex_unlock(&dt_pid_lock);
		dt_pid_probe_free(pp);
		return 0;
	}
	err = dt_pid_hold(s, prov);
	if (err)
		goto out_unused;
	pp->id = dtrace_probe_create(prov->id, pp->mod, pp->func, pp->name, 0, pp);
	if (pp->id == DTRACE_IDNONE) {
		/* Held: it goes with the session. */
		err = -ENOMEM;
		goto out_free;
	}
	list_add_tail(&pp->list, &prov->probes);
	pl->dtup_id = pp->id;
	s->nprobes++;
	mutex_unlock(&dt_pid_lock);
	return 0;

out_unused:
	/* A provider just registered for this probe alone goes again. */
	if (prov->refs == 0 && list_empty(&prov->probes))
		dt_pid_prov_retire(prov);
out_free:
	mutex_unlock(&dt_pid_lock);
	dt_pid_probe_free(pp);
	return err;
}

/* ==== /dev/dtrace_uprobe ============================================= */

static int dt_pid_open(struct inode *inode, struct file *file)
{
	struct dt_pid_session *s;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	INIT_LIST_HEAD(&s->holds);
	file->private_data = s;
	return 0;
}

static int dt_pid_release(struct inode *inode, struct file *file)
{
	struct dt_pid_session *s = file->private_data;
	struct dt_pid_hold *h, *tmp;
	bool busy = false;

	mutex_lock(&dt_pid_lock);
	list_for_each_entry_safe(h, tmp, &s->holds, list) {
		if (!WARN_ON_ONCE(h->prov->refs == 0) && --h->prov->refs == 0 &&
		    !dt_pid_prov_retire(h->prov))
			busy = true;
		list_del(&h->list);
		kfree(h);
	}
	mutex_unlock(&dt_pid_lock);
	if (busy)
		schedule_delayed_work(&dt_pid_reaper, HZ);
	kfree(s);
	return 0;
}

static long dt_pid_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct dt_pid_session *s = file->private_data;
	dtrace_uprobe_place_t *pl;
	long err;

	if (cmd != DTRACE_UPROBEIOC_PLACE)
		return -ENOTTY;
	pl = memdup_user((void __user *)arg, sizeof(*pl));
	if (IS_ERR(pl))
		return PTR_ERR(pl);
	err = dt_pid_place(s, pl);
	if (!err && copy_to_user((void __user *)arg, pl, sizeof(*pl)))
		err = -EFAULT;	/* the probe stays, with the session */
	kfree(pl);
	return err;
}

static const struct file_operations dt_pid_fops = {
	.owner = THIS_MODULE,
	.open = dt_pid_open,
	.release = dt_pid_release,
	.unlocked_ioctl = dt_pid_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice dt_pid_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = DTRACE_UPROBE_DEVICE_NAME,
	.fops = &dt_pid_fops,
	.mode = 0600,
};

static int __init dt_pid_init(void)
{
	return misc_register(&dt_pid_misc);
}

static void __exit dt_pid_exit(void)
{
	struct dt_pid_prov *prov, *tmp;

	/* No session is open (the device pins the module) ... */
	misc_deregister(&dt_pid_misc);
	cancel_delayed_work_sync(&dt_pid_reaper);
	/*
	 * ... and no consumer is (each pins a registered provider's module):
	 * every provider left unregisters.
	 */
	mutex_lock(&dt_pid_lock);
	list_for_each_entry_safe(prov, tmp, &dt_pid_provs, list)
		WARN_ON(!dt_pid_prov_retire(prov));
	mutex_unlock(&dt_pid_lock);
}

module_init(dt_pid_init);
module_exit(dt_pid_exit);

MODULE_DESCRIPTION("DTrace pid and USDT providers: uprobes in user processes");
MODULE_LICENSE("GPL");
