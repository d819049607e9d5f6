// SPDX-License-Identifier: GPL-2.0-only
/*
 * dtrace_fbt.c - the fbt provider's kernel half (illumos fbt: function
 * boundary tracing) for the kmod engine:
 *
 *   kernel function F in vmlinux   ->  fbt:vmlinux:F:entry, fbt:vmlinux:F:return
 *   kernel function F in module M  ->  fbt:M:F:entry,       fbt:M:F:return
 *
 *   entry   arg0-5: the function's first six arguments, arg6-11 the next
 *           six (regs_get_kernel_argument(): x86-64 di si dx cx r8 r9,
 *           then the stack); the userspace plugin types them from BTF.
 *   return  arg1: the return value (regs_return_value()). arg0 is 0:
 *           illumos gives the offset of the return instruction in the
 *           function, which a kretprobe cannot know (it fires in the
 *           rethook trampoline after the function returned, with no trace
 *           of which of its return sites ran), so it is 0 on every engine.
 *
 * Which functions. A module cannot walk the kernel's symbols (the walkers
 * are not exported), so it never looks for functions: userspace names
 * them. The fbt plugin lists the functions (available_filter_functions,
 * /proc/kallsyms), and before the kmod engine enables or lists fbt probes
 * it writes the functions they need to the parameter `provide`, one per
 * line, "MODULE FUNCTION [ADDRESS]" ("vmlinux vfs_read ffffffff8a3c1e40",
 * "ext4 ext4_file_read_iter"), the address in hex as /proc/kallsyms shows
 * it to root. Each new one gets its two probes. Everything written is
 * checked: the line's form and field lengths, the characters of both
 * names, the address's digits, the number of functions (max_functions); a
 * module named dtrace or dtrace_* is refused (EPERM): the tracer never
 * traces itself. The address is only a hint, checked when it is used;
 * 0 takes a function's back (it is registered by name).
 *
 * Nothing is armed until a probe is enabled (118,000 functions, a few
 * traced). dtps_enable registers one struct kprobe (entry) or struct
 * kretprobe (return), offset 0, by .addr when userspace gave an address
 * that sprint_symbol() (a binary search of kallsyms) names "F+0x0" in M,
 * else by .symbol_name ("F", or "M:F" in a module; the kprobe core's
 * kallsyms_lookup_name(), a walk of the symbols on 6.1). The
 * kprobe core refuses what it cannot probe (the kprobe blacklist, notrace
 * and noinstr code, no kernel text) with an errno that fails the ENABLE,
 * and the core reports "fbt:M:F:entry: the provider refused to enable it
 * (-22)". Either way the kprobe is registered disabled and armed only once
 * the address the kprobe core settled on is checked again with
 * sprint_symbol(): F itself at offset 0, in M (no module for vmlinux), and
 * not in dtrace.ko or a dtrace_* module (EPERM), so that no probe can
 * recurse into the tracer. Checking after registration closes the race
 * with a module unloaded and another loaded at the same address between
 * the first check and the registration (a kprobe registered in a module
 * that goes away is marked GONE and never armed).
 *
 * Arming cost. Each armed kprobe is an ftrace filter update of its own
 * (arm_kprobe_ftrace(): ftrace_set_filter_ip() and a pass over every
 * ftrace record); the kprobe API has no way to arm many in one update, so
 * register_kprobes() would only loop over register_kprobe() (and undo
 * all on the first refusal, where DTrace fails the one probe): each
 * enabling registers its own.
 *
 * Disarming is lazy and batched: dtps_disable clears the firing id (a
 * disabled probe stops firing at once; the core's synchronize_rcu() waits
 * for handlers already running) and leaves the kprobe registered, idle;
 * idle kprobes are unregistered together (unregister_kprobes(): one RCU
 * grace period for the batch) when the provider's last probe is disabled
 * or FBT_IDLE_MAX are idle. An idle kprobe enabled again is reused.
 *
 * Modules. A traced module may go away while its probes are enabled: the
 * kprobe core then marks their kprobes GONE before its text is freed (they
 * never fire again), and our module notifier marks its functions dead
 * (their probes stay: the core destroys probes only with the provider).
 * Enabling a dead function's probe succeeds and arms nothing; written to
 * `provide` again (the module is back) it lives again, and its next
 * enabling registers a new kprobe (a GONE one is unregistered first).
 *
 * Context and lifetimes. The handlers run in kprobe context (preemption
 * off, any context the traced function runs in) and only read the firing
 * id with READ_ONCE() and call dtrace_probe(); they never sleep, lock or
 * allocate. A handler reaches its struct fbt_fn through the kprobe's
 * container; an fbt_fn is freed only at module exit, after every kprobe is
 * unregistered (unregister_kprobe*() waits for running handlers) and the
 * provider is gone, so no CPU can still find it; a kprobe's container is
 * freed right after its unregistration returns.
 *
 * Locks: fbt_lock (mutex) guards the function table, each function's
 * kprobes and the counters. It nests inside the core's dtrace_lock
 * (dtps_enable and dtps_disable are called under it) and is never held
 * across dtrace_probe_create() (which takes dtrace_lock): `provide`
 * creates probes under fbt_provide_lock only, which serializes writers.
 */
#define pr_fmt(fmt) "dtrace_fbt: " fmt

#include <linux/ctype.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <dtrace/provider.h>

#define FBT_HASH_BITS	14
#define FBT_IDLE_MAX	1024	/* idle kprobes kept before a batch unregisters them */
#define FBT_ENTRY_AFRAMES	2	/* fbt_entry, kprobe_ftrace_handler */
#define FBT_RETURN_AFRAMES	3	/* fbt_return, the rethook handler, trampoline */

struct fbt_fn;

struct fbt_kprobe {
	struct kprobe kp;
	struct fbt_fn *fn;
};

struct fbt_kretprobe {
	struct kretprobe krp;
	struct fbt_fn *fn;
};

/* One kernel function that userspace named, and its two probes. */
struct fbt_fn {
	struct list_head list;		/* fbt_fns */
	struct hlist_node by_name;	/* fbt_names */
	dtrace_id_t entry_on;		/* the firing id, 0: off (READ_ONCE) */
	dtrace_id_t return_on;
	struct fbt_kprobe *kp;		/* registered (armed or idle), or NULL */
	struct fbt_kretprobe *krp;
	bool dead;			/* its module went away */
	unsigned long addr;		/* from userspace, unchecked; 0: none */
	char mod[MODULE_NAME_LEN];
	const char *func;		/* in sym */
	char sym[];			/* "F" (vmlinux) or "M:F": the kprobe's symbol_name */
};

/* parg: the fbt_fn, its low bit set for the return probe. */
#define FBT_PARG(fn, ret)	((void *)((uintptr_t)(fn) | (ret)))
#define FBT_FN(parg)		((struct fbt_fn *)((uintptr_t)(parg) & ~(uintptr_t)1))
#define FBT_RET(parg)		((uintptr_t)(parg) & 1)

static DEFINE_MUTEX(fbt_provide_lock);
static DEFINE_MUTEX(fbt_lock);
static LIST_HEAD(fbt_fns);
static DEFINE_HASHTABLE(fbt_names, FBT_HASH_BITS);
static unsigned int fbt_nenabled;	/* probes the core enabled */
static unsigned int fbt_idle;		/* registered kprobes nobody fires (about) */
static dtrace_provider_id_t fbt_id;	/* under fbt_provide_lock once set */
static DEFINE_PER_CPU(struct pt_regs *, fbt_regs);	/* an entry firing's registers */

static unsigned int functions;
module_param(functions, uint, 0444);
MODULE_PARM_DESC(functions, "functions with probes (written to provide)");
static unsigned int max_functions = 1U << 20;
module_param(max_functions, uint, 0644);
MODULE_PARM_DESC(max_functions, "the most functions provide accepts");
static unsigned int armed;
module_param(armed, uint, 0444);
MODULE_PARM_DESC(armed, "kprobes and kretprobes registered now");
static unsigned int refused;
module_param(refused, uint, 0444);
MODULE_PARM_DESC(refused, "enablings refused (kprobe core or tracer check)");
static unsigned int fbt_by_addr;
module_param_named(by_address, fbt_by_addr, uint, 0444);
MODULE_PARM_DESC(by_address, "registrations by the address userspace gave (the rest by name)");
static unsigned long missed;
module_param(missed, ulong, 0444);
MODULE_PARM_DESC(missed, "firings the kprobe core missed (reentry, no kretprobe instance)");

static const dtrace_pattr_t fbt_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

/* ==== Probe context ================================================== */

static int fbt_entry(struct kprobe *kp, struct pt_regs *regs)
{
	struct fbt_fn *fn = container_of(kp, struct fbt_kprobe, kp)->fn;
	dtrace_id_t id = READ_ONCE(fn->entry_on);

	if (!id)
		return 0;
	this_cpu_write(fbt_regs, regs);
	/* The stack begins past the function's own entry: at its caller. */
	dtrace_probe_at(id, (unsigned long)kp->addr,
			regs_get_kernel_argument(regs, 0), regs_get_kernel_argument(regs, 1),
			regs_get_kernel_argument(regs, 2), regs_get_kernel_argument(regs, 3),
			regs_get_kernel_argument(regs, 4), regs_get_kernel_argument(regs, 5));
	this_cpu_write(fbt_regs, NULL);
	return 0;
}
NOKPROBE_SYMBOL(fbt_entry);

static int fbt_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fbt_kretprobe *k = container_of(get_kretprobe(ri), struct fbt_kretprobe, krp);
	dtrace_id_t id = READ_ONCE(k->fn->return_on);

	/* arg0, the return instruction's offset, is not known (see the top). */
	if (id)
		/* The stack begins at the return site (rethook set regs->ip). */
		dtrace_probe_at(id, instruction_pointer(regs), 0, regs_return_value(regs), 0, 0,
				0, 0);
	return 0;
}
NOKPROBE_SYMBOL(fbt_return);

/* Entry arguments 6-11 (from the stack); return probes have none. */
static u64 fbt_getargval(void *arg, dtrace_id_t id, void *parg, int argno, int aframes)
{
	struct pt_regs *regs = this_cpu_read(fbt_regs);

	if (!regs || FBT_RET(parg) || argno < 0 || argno >= DTRACE_MAXARGS)
		return 0;
	return regs_get_kernel_argument(regs, argno);
}
NOKPROBE_SYMBOL(fbt_getargval);

/* ==== Arming ========================================================= */

/*
 * fbt_check_site - is addr (userspace's, or where the kprobe core placed
 * fn's kprobe) the function fn names at offset 0, and not the tracer's own
 * code? addr is never dereferenced.
 * sprint_symbol() writes "F+0x0/0x1a0" for vmlinux, "F+0x0/0x1a0 [M]"
 * for a module. Return 0, -EPERM (the tracer) or -ENOENT (elsewhere).
 */
static int fbt_check_site(struct fbt_fn *fn, unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];
	size_t flen = strlen(fn->func);
	const char *mod, *end;

	if (within_module(addr, THIS_MODULE))
		return -EPERM;
	sprint_symbol(buf, addr);
	if (strncmp(buf, fn->func, flen) || strncmp(buf + flen, "+0x0/", 5))
		return -ENOENT;
	mod = strstr(buf + flen, " [");
	if (!mod)
		return strcmp(fn->mod, "vmlinux") ? -ENOENT : 0;
	mod += 2;
	end = strchr(mod, ']');
	if (!end)
		return -ENOENT;
	if ((end - mod == 6 && !strncmp(mod, "dtrace", 6)) || !strncmp(mod, "dtrace_", 7))
		return -EPERM;
	if (strlen(fn->mod) != end - mod || strncmp(fn->mod, mod, end - mod))
		return -ENOENT;
	return 0;
}

/*
 * fbt_site - how to place fn's kprobe: its address when userspace gave one
 * that checks out (fbt_check_site()), else its name (the kprobe core's
 * slow lookup). A tracer address is refused outright.
 */
static int fbt_site(struct fbt_fn *fn, struct kprobe *kp)
{
	int err = fn->addr ? fbt_check_site(fn, fn->addr) : -ENOENT;

	if (err == -EPERM)
		return err;
	if (err) {
		kp->symbol_name = fn->sym;
	} else {
		kp->addr = (kprobe_opcode_t *)fn->addr;
		fbt_by_addr++;
	}
	return 0;
}

/* Unregister one kprobe now (a GONE one, or a failed enabling). */
static void fbt_drop_entry(struct fbt_fn *fn)
{
	unregister_kprobe(&fn->kp->kp);
	missed += fn->kp->kp.nmissed;
	kfree(fn->kp);
	fn->kp = NULL;
	armed--;
}

static void fbt_drop_return(struct fbt_fn *fn)
{
	unregister_kretprobe(&fn->krp->krp);
	missed += fn->krp->krp.nmissed + fn->krp->krp.kp.nmissed;
	kfree(fn->krp);
	fn->krp = NULL;
	armed--;
}

static int fbt_arm_entry(struct fbt_fn *fn)
{
	struct fbt_kprobe *k;
	int err;

	lockdep_assert_held(&fbt_lock);
	if (fn->kp && kprobe_gone(&fn->kp->kp))
		fbt_drop_entry(fn);		/* its module went and came back */
	if (fn->kp)
		return 0;			/* idle since an earlier enabling */
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->fn = fn;
	k->kp.pre_handler = fbt_entry;
	k->kp.flags = KPROBE_FLAG_DISABLED;
	err = fbt_site(fn, &k->kp);
	if (!err)
		err = register_kprobe(&k->kp);
	if (err) {
		kfree(k);
		return err;
	}
	fn->kp = k;
	armed++;
	err = fbt_check_site(fn, (unsigned long)k->kp.addr);
	if (!err)
		err = enable_kprobe(&k->kp);
	if (err)
		fbt_drop_entry(fn);
	return err;
}

static int fbt_arm_return(struct fbt_fn *fn)
{
	struct fbt_kretprobe *k;
	int err;

	lockdep_assert_held(&fbt_lock);
	if (fn->krp && kprobe_gone(&fn->krp->krp.kp))
		fbt_drop_return(fn);
	if (fn->krp)
		return 0;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->fn = fn;
	k->krp.kp.flags = KPROBE_FLAG_DISABLED;
	k->krp.handler = fbt_return;
	/* Calls in flight at once (sleeping in the function included). */
	k->krp.maxactive = max_t(int, 32, 4 * num_possible_cpus());
	err = fbt_site(fn, &k->krp.kp);
	if (!err)
		err = register_kretprobe(&k->krp);
	if (err) {
		kfree(k);
		return err;
	}
	fn->krp = k;
	armed++;
	err = fbt_check_site(fn, (unsigned long)k->krp.kp.addr);
	if (!err)
		err = enable_kretprobe(&k->krp);
	if (err)
		fbt_drop_return(fn);
	return err;
}

/*
 * fbt_flush - unregister every idle kprobe and kretprobe (nobody fires
 * them) in two batches. Without memory for the batch, one at a time.
 * Context: process, fbt_lock held; waits for an RCU grace period.
 */
static void fbt_flush(void)
{
	struct kprobe **kps = NULL;
	struct kretprobe **krps = NULL;
	unsigned int nk = 0, nr = 0, i;
	struct fbt_fn *fn;

	lockdep_assert_held(&fbt_lock);
	fbt_idle = 0;
	if (!armed)
		return;
	kps = kvmalloc_array(armed, sizeof(*kps), GFP_KERNEL);
	krps = kvmalloc_array(armed, sizeof(*krps), GFP_KERNEL);
	if (!kps || !krps) {
		list_for_each_entry(fn, &fbt_fns, list) {
			if (fn->kp && !fn->entry_on)
				fbt_drop_entry(fn);
			if (fn->krp && !fn->return_on)
				fbt_drop_return(fn);
		}
		goto out;
	}
	list_for_each_entry(fn, &fbt_fns, list) {
		if (fn->kp && !fn->entry_on && nk < armed)
			kps[nk++] = &fn->kp->kp;
		if (fn->krp && !fn->return_on && nr < armed)
			krps[nr++] = &fn->krp->krp;
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nr)
		unregister_kretprobes(krps, nr);
	for (i = 0; i < nk; i++) {
		struct fbt_kprobe *k = container_of(kps[i], struct fbt_kprobe, kp);

		missed += k->kp.nmissed;
		k->fn->kp = NULL;
		kfree(k);
	}
	for (i = 0; i < nr; i++) {
		struct fbt_kretprobe *k = container_of(krps[i], struct fbt_kretprobe, krp);

		missed += k->krp.nmissed + k->krp.kp.nmissed;
		k->fn->krp = NULL;
		kfree(k);
	}
	armed -= nk + nr;
out:
	kvfree(kps);
	kvfree(krps);
}

/* ==== Provider operations ============================================ */

/*
 * Nothing to do: probes exist for the functions written to `provide`
 * (the kernel's symbols cannot be walked from a module).
 */
static void fbt_provide(void *arg, const dtrace_probedesc_t *desc)
{
}

static int fbt_enable(void *arg, dtrace_id_t id, void *parg)
{
	struct fbt_fn *fn = FBT_FN(parg);
	bool ret = FBT_RET(parg);
	int err = 0;

	/*
	 * Each arming is an ftrace update (a tenth of a second under
	 * emulation): a consumer killed while it enables thousands stops
	 * here, and the core rolls back what it enabled.
	 */
	if (fatal_signal_pending(current))
		return -EINTR;
	mutex_lock(&fbt_lock);
	if (!fn->dead) {
		err = ret ? fbt_arm_return(fn) : fbt_arm_entry(fn);
		if (err) {
			refused++;
			pr_info("%s:%s:%s cannot be enabled: %s (%d)\n", fn->mod, fn->func,
				ret ? "return" : "entry",
				err == -EPERM ? "the tracer's own code" :
				err == -ENOENT ? "no such function" :
				err == -EINVAL ? "the kprobe core refuses it (blacklist, notrace)" :
				"kprobe registration failed", err);
		} else if (ret) {
			WRITE_ONCE(fn->return_on, id);
		} else {
			WRITE_ONCE(fn->entry_on, id);
		}
	}
	if (!err)
		fbt_nenabled++;
	mutex_unlock(&fbt_lock);
	return err;
}

static void fbt_disable(void *arg, dtrace_id_t id, void *parg)
{
	struct fbt_fn *fn = FBT_FN(parg);

	mutex_lock(&fbt_lock);
	if (FBT_RET(parg)) {
		WRITE_ONCE(fn->return_on, 0);
		fbt_idle += !!fn->krp;
	} else {
		WRITE_ONCE(fn->entry_on, 0);
		fbt_idle += !!fn->kp;
	}
	if (!WARN_ON_ONCE(!fbt_nenabled))
		fbt_nenabled--;
	if (!fbt_nenabled || fbt_idle >= FBT_IDLE_MAX)
		fbt_flush();
	mutex_unlock(&fbt_lock);
}

static const dtrace_pops_t fbt_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = fbt_provide,
	.dtps_enable = fbt_enable,
	.dtps_disable = fbt_disable,
	.dtps_getargval = fbt_getargval,
};

/* ==== provide: functions named by userspace ========================== */

static u32 fbt_hash(const char *mod, const char *func)
{
	return jhash(func, strlen(func), jhash(mod, strlen(mod), 0));
}

static struct fbt_fn *fbt_find(const char *mod, const char *func)
{
	struct fbt_fn *fn;

	lockdep_assert_held(&fbt_lock);
	hash_for_each_possible(fbt_names, fn, by_name, fbt_hash(mod, func))
		if (!strcmp(fn->func, func) && !strcmp(fn->mod, mod))
			return fn;
	return NULL;
}

/* n characters of s, all [A-Za-z0-9_] or in extra, 1 <= n < max. */
static bool fbt_name_ok(const char *s, size_t max, const char *extra)
{
	size_t i, n = strnlen(s, max);

	if (n == 0 || n == max)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum(s[i]) && s[i] != '_' && !strchr(extra, s[i]))
			return false;
	return true;
}

/*
 * fbt_provide_one - give mod:func its probes unless it has them (a dead
 * one lives again); with has_addr, addr (0: none, by name) replaces the
 * one it had, for its next registration. Context: fbt_provide_lock held,
 * fbt_lock not.
 */
static int fbt_provide_one(const char *mod, const char *func, bool has_addr,
			   unsigned long addr)
{
	bool vmlinux = !strcmp(mod, "vmlinux");
	size_t symlen = (vmlinux ? 0 : strlen(mod) + 1) + strlen(func) + 1;
	dtrace_id_t entry_id, return_id;
	struct fbt_fn *fn;

	if (!fbt_name_ok(mod, MODULE_NAME_LEN, "-") ||
	    !fbt_name_ok(func, DTRACE_FUNCNAMELEN, "."))
		return -EINVAL;
	if (!strcmp(mod, "dtrace") || !strncmp(mod, "dtrace_", 7))
		return -EPERM;		/* the tracer itself */

	mutex_lock(&fbt_lock);
	fn = fbt_find(mod, func);
	if (fn) {
		fn->dead = false;
		if (has_addr)
			fn->addr = addr;
	}
	mutex_unlock(&fbt_lock);
	if (fn)
		return 0;
	if (functions >= READ_ONCE(max_functions))
		return -ENOSPC;

	fn = kzalloc(struct_size(fn, sym, symlen), GFP_KERNEL);
	if (!fn)
		return -ENOMEM;
	strscpy(fn->mod, mod, sizeof(fn->mod));
	fn->addr = addr;
	if (vmlinux)
		strscpy(fn->sym, func, symlen);
	else
		snprintf(fn->sym, symlen, "%s:%s", mod, func);
	fn->func = fn->sym + (vmlinux ? 0 : strlen(mod) + 1);
	entry_id = dtrace_probe_create(fbt_id, mod, func, "entry", FBT_ENTRY_AFRAMES,
				       FBT_PARG(fn, 0));
	return_id = dtrace_probe_create(fbt_id, mod, func, "return", FBT_RETURN_AFRAMES,
					FBT_PARG(fn, 1));
	if (!entry_id && !return_id) {
		kfree(fn);
		return -ENOMEM;
	}
	/* Once a probe exists the core may hand fn back: keep it to the end. */
	mutex_lock(&fbt_lock);
	list_add_tail(&fn->list, &fbt_fns);
	hash_add(fbt_names, &fn->by_name, fbt_hash(mod, func));
	functions++;
	mutex_unlock(&fbt_lock);
	return entry_id && return_id ? 0 : -ENOMEM;
}

/*
 * Writing `provide`: lines "MODULE FUNCTION [ADDRESS]", at most a page per write
 * (sysfs), NUL-terminated by sysfs. The first bad line fails the write
 * with its errno; the lines before it are provided.
 */
static int fbt_provide_set(const char *val, const struct kernel_param *kp)
{
	char *buf, *line, *next;
	int err = 0;

	if (!val)
		return -EINVAL;
	buf = kstrndup(val, PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&fbt_provide_lock);
	if (!fbt_id)
		err = -ENODEV;	/* before init or after exit: no provider */
	for (line = buf; line && !err; line = next) {
		unsigned long addr = 0;
		char *mod, *func, *hex;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line)
			continue;
		mod = line;
		func = strchr(line, ' ');
		if (!func) {
			err = -EINVAL;
			break;
		}
		*func++ = '\0';
		hex = strchr(func, ' ');
		if (hex) {
			*hex++ = '\0';
			/* Hex digits only: no sign, no "0x", no second space. */
			if (!*hex || strspn(hex, "0123456789abcdefABCDEF") != strlen(hex) ||
			    kstrtoul(hex, 16, &addr)) {
				err = -EINVAL;
				break;
			}
		}
		err = fbt_provide_one(mod, func, hex != NULL, addr);
	}
	mutex_unlock(&fbt_provide_lock);
	kfree(buf);
	return err;
}

static const struct kernel_param_ops fbt_provide_ops = {
	.set = fbt_provide_set,
};
module_param_cb(provide, &fbt_provide_ops, NULL, 0200);
MODULE_PARM_DESC(provide, "write \"MODULE FUNCTION [ADDRESS]\" lines: the functions to give probes");

/* ==== Modules going away ============================================= */

static int fbt_module_event(struct notifier_block *nb, unsigned long val, void *data)
{
	struct module *mod = data;
	struct fbt_fn *fn;

	if (val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	/* The kprobe core makes its kprobes GONE; they are unregistered later. */
	mutex_lock(&fbt_lock);
	list_for_each_entry(fn, &fbt_fns, list) {
		if (fn->dead || strcmp(fn->mod, mod->name))
			continue;
		fn->dead = true;
		WRITE_ONCE(fn->entry_on, 0);
		WRITE_ONCE(fn->return_on, 0);
	}
	mutex_unlock(&fbt_lock);
	return NOTIFY_OK;
}

static struct notifier_block fbt_module_nb = {
	.notifier_call = fbt_module_event,
};

/* ==== Module init and exit =========================================== */

static int __init fbt_init(void)
{
	dtrace_provider_id_t id;
	int err = register_module_notifier(&fbt_module_nb);

	if (err)
		return err;
	err = dtrace_register("fbt", &fbt_attr, DTRACE_PRIV_KERNEL, &fbt_pops, NULL, &id);
	if (err) {
		unregister_module_notifier(&fbt_module_nb);
		return err;
	}
	/* `provide` (writable before init and after exit) sees it from now. */
	mutex_lock(&fbt_provide_lock);
	fbt_id = id;
	mutex_unlock(&fbt_provide_lock);
	return 0;
}

static void __exit fbt_exit(void)
{
	struct fbt_fn *fn, *tmp;
	dtrace_provider_id_t id;

	mutex_lock(&fbt_provide_lock);
	id = fbt_id;
	fbt_id = 0;
	mutex_unlock(&fbt_provide_lock);
	/* Nothing is enabled: the core holds this module while anything is. */
	WARN_ON(dtrace_unregister(id));
	unregister_module_notifier(&fbt_module_nb);
	mutex_lock(&fbt_lock);
	list_for_each_entry(fn, &fbt_fns, list) {
		WRITE_ONCE(fn->entry_on, 0);
		WRITE_ONCE(fn->return_on, 0);
	}
	fbt_flush();
	WARN_ON_ONCE(armed);
	mutex_unlock(&fbt_lock);
	list_for_each_entry_safe(fn, tmp, &fbt_fns, list)
		kfree(fn);
}

module_init(fbt_init);
module_exit(fbt_exit);

MODULE_DESCRIPTION("DTrace fbt provider: kernel function entry (kprobes) and return (kretprobes)");
MODULE_LICENSE("GPL");
