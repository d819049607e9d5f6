// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_fbt.c - the fbt provider's kernel half (illumos fbt: function
 * boundary tracing):
 *
 *   kernel function F in vmlinux   ->  fbt:vmlinux:F:entry, fbt:vmlinux:F:return
 *   kernel function F in module M  ->  fbt:M:F:entry,       fbt:M:F:return
 *
 *   entry   arg0-5: the function's first six arguments (x86-64: di si dx
 *           cx r8 r9, from pt_regs); the userspace plugin types them from
 *           BTF (args[]).
 *   return  arg0: the offset of the return instruction (illumos); a
 *           kretprobe does not know it, so 0. arg1: the return value (ax).
 *
 * Which functions: those ftrace can patch (ftrace_location(): not
 * notrace, not noinstr, the same set as available_filter_functions), with
 * the userspace plugin's name rules (function_source.hpp: no '.' parts,
 * no __pfx_/__cfi_ stubs), minus the kprobe blacklist
 * (within_kprobe_blacklist(): refused and counted in the `refused`
 * parameter) and minus the tracer itself (dtrace.ko and every dtrace_*
 * provider module; they are built without fentry anyway).
 *
 * Probes are created on demand: dtps_provide(desc) walks kallsyms for the
 * functions the description can match (a walk of every symbol for
 * fbt:::entry), so that `dtrace -n fbt::vfs_read:entry` does not create
 * 100,000 probes. kallsyms_on_each_symbol() and the other walkers are not
 * exported: they are found once with kallsyms_lookup_name(), itself found
 * through a kprobe on it (the kernel resolves a kprobe's symbol_name).
 *
 * How they fire:
 *
 *   entry   one ftrace_ops (fbt_ops) whose filter holds the fentry site
 *           of every enabled entry probe; its callback finds the function
 *           by ip in an RCU hash table and calls dtrace_probe().
 *   return  one kretprobe per enabled return probe (a kprobe on ftrace
 *           plus a rethook).
 *
 * Arming is batched: dtps_enable and dtps_disable only record what is
 * wanted (entry_on/return_on, read by probe context with READ_ONCE, so a
 * disabled probe stops firing at once); fbt_sync() makes the armed state
 * match, with one ftrace filter update for all entry probes. It runs at
 * dtps_start (the consumer's GO: a glob of thousands of functions is one
 * update, not thousands), when the last probe is disabled (everything is
 * disarmed), and when a module goes.
 *
 * Modules: a module notifier (MODULE_STATE_GOING) kills the functions of
 * a module that goes away: they leave the ip table, their ips leave the
 * filter and their kretprobes are unregistered, all before the module's
 * text is freed; their probes stay (the core has no probe destruction
 * short of unregistering the provider) and never fire again. A module
 * loaded again under the same name revives them at the next provide
 * (new addresses), armed again if still enabled.
 *
 * Context: fbt_entry() runs from the ftrace trampoline with preemption
 * disabled and recursion protected (no FTRACE_OPS_FL_RECURSION: ftrace
 * wraps it), only where RCU is watching (FTRACE_OPS_FL_RCU); fbt_return()
 * from the rethook trampoline, preemption disabled. Neither sleeps, takes
 * a lock or allocates; the core's synchronize_rcu() after a disable waits
 * for both. struct fbt_fn is never freed before module exit, after
 * dtrace_unregister() and the ftrace ops are gone.
 *
 * Locks: fbt_lock (mutex) guards the function table and the armed state;
 * it nests inside the core's dtrace_provider_lock and dtrace_lock (taken
 * in provide, enable, disable, start) and is taken alone by the module
 * notifier.
 */
#define pr_fmt(fmt) "dtrace_fbt: " fmt

#include <linux/ftrace.h>
#include <linux/glob.h>
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
#include <linux/slab.h>
#include <linux/string.h>

#include <dtrace/provider.h>

#ifndef CONFIG_X86_64
#error "dtrace_fbt: only x86-64's calling convention is wired up"
#endif
#if !defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) || !defined(CONFIG_KPROBES)
#error "dtrace_fbt: needs ftrace with registers and kprobes"
#endif

/* The kernel's own walkers (not exported; see fbt_resolve()). */
typedef int (*fbt_sym_fn)(void *data, const char *name, struct module *mod,
			  unsigned long addr);
static int (*fbt_kallsyms_each)(fbt_sym_fn fn, void *data);
static int (*fbt_module_kallsyms_each)(fbt_sym_fn fn, void *data);
static unsigned long (*fbt_ftrace_location)(unsigned long ip);
static bool (*fbt_within_kprobe_blacklist)(unsigned long addr);

struct fbt_fn;

/* A return probe's kretprobe, allocated while it is armed. */
struct fbt_krp {
	struct kretprobe krp;
	struct fbt_fn *fn;
};

struct fbt_fn {
	struct list_head list;		/* fbt_fns, under fbt_lock */
	struct hlist_node by_ip;	/* fbt_ip_hash: RCU readers */
	struct hlist_node by_name;	/* fbt_name_hash, under fbt_lock */
	unsigned long addr;		/* the symbol */
	unsigned long ip;		/* its fentry site (ftrace_location) */
	dtrace_id_t entry_id, return_id;
	dtrace_id_t entry_on;		/* entry_id while it fires, else 0 */
	dtrace_id_t return_on;		/* return_id while it fires, else 0 */
	bool entry_enabled, return_enabled;	/* the core's view */
	bool in_filter;			/* ip is in fbt_ops' filter */
	bool dead;			/* its module went away */
	struct fbt_krp *krp;		/* while the return probe is armed */
	char mod[MODULE_NAME_LEN];
	char name[];
};

/* parg: the fbt_fn, its low bit set for the return probe. */
#define FBT_PARG(fn, ret)	((void *)((uintptr_t)(fn) | (ret)))
#define FBT_FN(parg)		((struct fbt_fn *)((uintptr_t)(parg) & ~(uintptr_t)1))
#define FBT_RET(parg)		((uintptr_t)(parg) & 1)

#define FBT_HASH_BITS	14

static DEFINE_MUTEX(fbt_lock);
static LIST_HEAD(fbt_fns);
static DEFINE_HASHTABLE(fbt_ip_hash, FBT_HASH_BITS);
static DEFINE_HASHTABLE(fbt_name_hash, FBT_HASH_BITS);
static unsigned int fbt_nenabled;	/* probes the core enabled */
static bool fbt_ops_registered;
static bool fbt_dirty;			/* wanted != armed */
static dtrace_provider_id_t fbt_id;
/*
 * What was provided already, so that a repeated description (PROBEMATCH
 * asks for every probe it returns) does not walk kallsyms again: a module
 * becoming live bumps fbt_gen; a walk for anything sets fbt_all_gen, one
 * for a module and function glob sets fbt_last_*.
 */
static unsigned int fbt_gen = 1, fbt_all_gen, fbt_last_gen;
static char fbt_last_mod[DTRACE_MODNAMELEN], fbt_last_func[DTRACE_FUNCNAMELEN];

static unsigned int refused;
module_param(refused, uint, 0444);
MODULE_PARM_DESC(refused, "functions refused (kprobe blacklist, kretprobe failures)");
static unsigned int functions;
module_param(functions, uint, 0444);
MODULE_PARM_DESC(functions, "functions with probes");
static unsigned int armed;
module_param(armed, uint, 0444);
MODULE_PARM_DESC(armed, "entry ips in the ftrace filter plus armed kretprobes");

static const dtrace_pattr_t fbt_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA },
};

/* ==== Probe context ================================================== */

static void fbt_entry(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct fbt_fn *fn;

	if (!regs)
		return;
	hash_for_each_possible_rcu_notrace(fbt_ip_hash, fn, by_ip, ip) {
		dtrace_id_t id;

		if (fn->ip != ip)
			continue;
		id = READ_ONCE(fn->entry_on);
		if (id)
			dtrace_probe(id, regs->di, regs->si, regs->dx, regs->cx,
				     regs->r8, regs->r9);
		return;
	}
}

static int fbt_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fbt_krp *k = container_of(get_kretprobe(ri), struct fbt_krp, krp);
	dtrace_id_t id = READ_ONCE(k->fn->return_on);

	if (id)
		dtrace_probe(id, 0, regs_return_value(regs), 0, 0, 0, 0);
	return 0;
}
NOKPROBE_SYMBOL(fbt_return);

static struct ftrace_ops fbt_ops = {
	.func = fbt_entry,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_RCU,
};

/* ==== Arming ========================================================= */

static int fbt_arm_return(struct fbt_fn *fn)
{
	struct fbt_krp *k = kzalloc(sizeof(*k), GFP_KERNEL);
	int err;

	if (!k)
		return -ENOMEM;
	k->fn = fn;
	k->krp.kp.addr = (kprobe_opcode_t *)fn->addr;
	k->krp.handler = fbt_return;
	err = register_kretprobe(&k->krp);
	if (err) {
		kfree(k);
		return err;
	}
	fn->krp = k;
	armed++;
	return 0;
}

/*
 * fbt_sync - make the armed state what entry_on/return_on want: one
 * filter update for every entry ip to add, one for every ip to remove
 * (adds first, so that a registered ops never has an empty filter, which
 * would trace every function), the ops unregistered when nothing is left,
 * and each kretprobe registered or unregistered (in one batch).
 * Context: process, fbt_lock held.
 */
static void fbt_sync(void)
{
	unsigned long *add = NULL, *del = NULL;
	struct kretprobe **gone = NULL;
	unsigned int nadd = 0, ndel = 0, ngone = 0, nin = 0;
	struct fbt_fn *fn;
	int err;

	lockdep_assert_held(&fbt_lock);
	if (!fbt_dirty)
		return;
	add = kvmalloc_array(functions ?: 1, sizeof(*add), GFP_KERNEL);
	del = kvmalloc_array(functions ?: 1, sizeof(*del), GFP_KERNEL);
	gone = kvmalloc_array(functions ?: 1, sizeof(*gone), GFP_KERNEL);
	if (!add || !del || !gone) {
		pr_err("no memory to arm probes\n");
		goto out;
	}
	list_for_each_entry(fn, &fbt_fns, list) {
		bool want = fn->entry_on && !fn->dead;

		if (want && !fn->in_filter)
			add[nadd++] = fn->ip;
		else if (!want && fn->in_filter)
			del[ndel++] = fn->ip;
		else if (want)
			nin++;
		if (!(fn->return_on && !fn->dead) && fn->krp)
			gone[ngone++] = &fn->krp->krp;
	}
	nin += nadd;
	if (nin == 0) {
		if (fbt_ops_registered) {
			unregister_ftrace_function(&fbt_ops);
			fbt_ops_registered = false;
		}
		ftrace_set_filter_ips(&fbt_ops, NULL, 0, 0, 1);
		list_for_each_entry(fn, &fbt_fns, list)
			fn->in_filter = false;
		armed -= ndel;
		ndel = 0;
	}
	if (nadd) {
		err = ftrace_set_filter_ips(&fbt_ops, add, nadd, 0, 0);
		if (err) {
			pr_err("cannot add %u functions to the filter: %d\n", nadd, err);
			nadd = 0;
		}
	}
	if (ndel) {
		err = ftrace_set_filter_ips(&fbt_ops, del, ndel, 1, 0);
		if (err)
			pr_err("cannot remove %u functions from the filter: %d\n", ndel, err);
	}
	list_for_each_entry(fn, &fbt_fns, list) {
		bool want = fn->entry_on && !fn->dead;

		if (want != fn->in_filter && (want ? nadd : ndel)) {
			fn->in_filter = want;
			armed += want ? 1 : -1;
		}
	}
	if (nadd && !fbt_ops_registered) {
		err = register_ftrace_function(&fbt_ops);
		if (err)
			pr_err("cannot register the ftrace ops: %d\n", err);
		else
			fbt_ops_registered = true;
	}
	if (ngone) {
		unregister_kretprobes(gone, ngone);
		list_for_each_entry(fn, &fbt_fns, list) {
			if (fn->krp && !(fn->return_on && !fn->dead)) {
				kfree(fn->krp);
				fn->krp = NULL;
				armed--;
			}
		}
	}
	list_for_each_entry(fn, &fbt_fns, list) {
		if (fn->return_on && !fn->dead && !fn->krp) {
			err = fbt_arm_return(fn);
			if (err) {
				refused++;
				pr_warn("%s:%s:return cannot be armed: %d\n", fn->mod,
					fn->name, err);
			}
		}
	}
	fbt_dirty = false;
out:
	kvfree(add);
	kvfree(del);
	kvfree(gone);
}

/* ==== Functions and probes =========================================== */

static u32 fbt_name_hash_of(const char *mod, const char *name)
{
	return jhash(name, strlen(name), jhash(mod, strlen(mod), 0));
}

static struct fbt_fn *fbt_find(const char *mod, const char *name)
{
	struct fbt_fn *fn;

	hash_for_each_possible(fbt_name_hash, fn, by_name, fbt_name_hash_of(mod, name))
		if (!strcmp(fn->name, name) && !strcmp(fn->mod, mod))
			return fn;
	return NULL;
}

/* The userspace plugin's name rules (function_source.hpp). */
static bool fbt_name_ok(const char *name)
{
	return !strchr(name, '.') && strncmp(name, "__pfx_", 6) &&
	       strncmp(name, "__cfi_", 6) &&
	       strncmp(name, "__ftrace_invalid_address__", 26);
}

static bool fbt_mod_ok(const char *mod)
{
	return strcmp(mod, "dtrace") && strncmp(mod, "dtrace_", 7);
}

/*
 * fbt_add - the function mod:name at addr gets its two probes, unless it
 * has them, is not traceable or is refused; a dead one with that name
 * comes back at its new address. Context: fbt_lock held, may sleep.
 */
static void fbt_add(const char *mod, const char *name, unsigned long addr)
{
	unsigned long ip = fbt_ftrace_location(addr);
	struct fbt_fn *fn;

	lockdep_assert_held(&fbt_lock);
	if (!ip)
		return;
	fn = fbt_find(mod, name);
	if (fn && !fn->dead)
		return;
	if (fbt_within_kprobe_blacklist(addr)) {
		refused++;
		return;
	}
	if (fn) {
		fn->addr = addr;
		fn->ip = ip;
		fn->dead = false;
		fn->entry_on = fn->entry_enabled ? fn->entry_id : 0;
		fn->return_on = fn->return_enabled ? fn->return_id : 0;
		hash_add_rcu(fbt_ip_hash, &fn->by_ip, ip);
		if (fn->entry_on || fn->return_on)
			fbt_dirty = true;
		return;
	}
	fn = kzalloc(struct_size(fn, name, strlen(name) + 1), GFP_KERNEL);
	if (!fn)
		return;
	strscpy(fn->mod, mod, sizeof(fn->mod));
	strcpy(fn->name, name);
	fn->addr = addr;
	fn->ip = ip;
	fn->entry_id = dtrace_probe_create(fbt_id, mod, name, "entry", 2, FBT_PARG(fn, 0));
	fn->return_id = dtrace_probe_create(fbt_id, mod, name, "return", 4, FBT_PARG(fn, 1));
	if (!fn->entry_id || !fn->return_id) {
		/* A name too long for a probe: the core has the other one. */
		pr_warn_once("%s:%s: no probe (name too long?)\n", mod, name);
	}
	list_add_tail(&fn->list, &fbt_fns);
	hash_add(fbt_name_hash, &fn->by_name, fbt_name_hash_of(mod, name));
	hash_add_rcu(fbt_ip_hash, &fn->by_ip, ip);
	functions++;
}

/* What a provide walk looks for (NULL: anything). */
struct fbt_walk {
	const char *mod, *func;
	struct list_head cands;		/* module functions, added after the walk */
};

struct fbt_cand {
	struct list_head list;
	struct module *owner;		/* a reference, taken in the walk */
	unsigned long addr;
	char name[];
};

static int fbt_vmlinux_sym(void *data, const char *name, struct module *mod,
			   unsigned long addr)
{
	struct fbt_walk *w = data;

	if (!fbt_name_ok(name) || (w->func && !glob_match(w->func, name)))
		return 0;
	fbt_add("vmlinux", name, addr);
	return 0;
}

/*
 * Called under module_mutex: only remembers the function (and pins its
 * module), so that probes are created without that lock held.
 */
static int fbt_module_sym(void *data, const char *name, struct module *mod,
			  unsigned long addr)
{
	struct fbt_walk *w = data;
	struct fbt_cand *c;

	if (!mod || mod->state != MODULE_STATE_LIVE || !fbt_mod_ok(mod->name) ||
	    !fbt_name_ok(name) || (w->mod && !glob_match(w->mod, mod->name)) ||
	    (w->func && !glob_match(w->func, name)))
		return 0;
	c = kmalloc(struct_size(c, name, strlen(name) + 1), GFP_KERNEL);
	if (!c)
		return 0;
	if (!try_module_get(mod)) {
		kfree(c);
		return 0;
	}
	c->owner = mod;
	c->addr = addr;
	strcpy(c->name, name);
	list_add_tail(&c->list, &w->cands);
	return 0;
}

static const char *fbt_glob(const char *s)
{
	return s[0] && strcmp(s, "*") ? s : NULL;
}

static void fbt_provide(void *arg, const dtrace_probedesc_t *desc)
{
	struct fbt_walk w = { .cands = LIST_HEAD_INIT(w.cands) };
	struct fbt_cand *c, *tmp;

	/* On demand only: a description says what to look for. */
	if (!desc)
		return;
	if (desc->dtpd_provider[0] && !glob_match(desc->dtpd_provider, "fbt"))
		return;
	if (desc->dtpd_name[0] && !glob_match(desc->dtpd_name, "entry") &&
	    !glob_match(desc->dtpd_name, "return"))
		return;
	w.mod = fbt_glob(desc->dtpd_mod);
	w.func = fbt_glob(desc->dtpd_func);

	mutex_lock(&fbt_lock);
	if (fbt_all_gen == fbt_gen ||
	    (fbt_last_gen == fbt_gen && !strcmp(fbt_last_mod, desc->dtpd_mod) &&
	     !strcmp(fbt_last_func, desc->dtpd_func))) {
		mutex_unlock(&fbt_lock);
		return;
	}
	if (!w.mod || glob_match(w.mod, "vmlinux"))
		fbt_kallsyms_each(fbt_vmlinux_sym, &w);
	if (!w.mod || !glob_match(w.mod, "vmlinux") || strpbrk(w.mod, "*?["))
		fbt_module_kallsyms_each(fbt_module_sym, &w);
	list_for_each_entry_safe(c, tmp, &w.cands, list) {
		fbt_add(c->owner->name, c->name, c->addr);
		module_put(c->owner);
		kfree(c);
	}
	if (!w.mod && !w.func) {
		fbt_all_gen = fbt_gen;
	} else {
		strscpy(fbt_last_mod, desc->dtpd_mod, sizeof(fbt_last_mod));
		strscpy(fbt_last_func, desc->dtpd_func, sizeof(fbt_last_func));
		fbt_last_gen = fbt_gen;
	}
	mutex_unlock(&fbt_lock);
}

static int fbt_enable(void *arg, dtrace_id_t id, void *parg)
{
	struct fbt_fn *fn = FBT_FN(parg);

	mutex_lock(&fbt_lock);
	if (FBT_RET(parg)) {
		fn->return_enabled = true;
		if (!fn->dead)
			WRITE_ONCE(fn->return_on, id);
	} else {
		fn->entry_enabled = true;
		if (!fn->dead)
			WRITE_ONCE(fn->entry_on, id);
	}
	fbt_nenabled++;
	fbt_dirty = true;
	mutex_unlock(&fbt_lock);
	return 0;
}

static void fbt_disable(void *arg, dtrace_id_t id, void *parg)
{
	struct fbt_fn *fn = FBT_FN(parg);

	mutex_lock(&fbt_lock);
	if (FBT_RET(parg)) {
		fn->return_enabled = false;
		WRITE_ONCE(fn->return_on, 0);
	} else {
		fn->entry_enabled = false;
		WRITE_ONCE(fn->entry_on, 0);
	}
	fbt_dirty = true;
	if (!WARN_ON_ONCE(!fbt_nenabled) && --fbt_nenabled == 0)
		fbt_sync();
	mutex_unlock(&fbt_lock);
}

static void fbt_start(void *arg, dtrace_id_t id, void *parg)
{
	mutex_lock(&fbt_lock);
	fbt_sync();
	mutex_unlock(&fbt_lock);
}

static const dtrace_pops_t fbt_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = fbt_provide,
	.dtps_enable = fbt_enable,
	.dtps_disable = fbt_disable,
	.dtps_start = fbt_start,
};

/* ==== Modules ======================================================== */

static int fbt_module_event(struct notifier_block *nb, unsigned long val, void *data)
{
	struct module *mod = data;
	struct fbt_fn *fn;

	if (val == MODULE_STATE_LIVE) {
		mutex_lock(&fbt_lock);
		fbt_gen++;	/* its functions are not provided yet */
		mutex_unlock(&fbt_lock);
		return NOTIFY_OK;
	}
	if (val != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&fbt_lock);
	list_for_each_entry(fn, &fbt_fns, list) {
		if (fn->dead || strcmp(fn->mod, mod->name))
			continue;
		fn->dead = true;
		WRITE_ONCE(fn->entry_on, 0);
		WRITE_ONCE(fn->return_on, 0);
		hash_del_rcu(&fn->by_ip);
		fbt_dirty = true;
	}
	fbt_sync();
	mutex_unlock(&fbt_lock);
	return NOTIFY_OK;
}

static struct notifier_block fbt_module_nb = {
	.notifier_call = fbt_module_event,
};

/* ==== Module init and exit =========================================== */

/* kallsyms_lookup_name() is not exported; a kprobe on it resolves it. */
static unsigned long fbt_kallsyms_lookup_name(const char *name)
{
	static unsigned long (*lookup)(const char *name);

	if (!lookup) {
		struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };

		if (register_kprobe(&kp))
			return 0;
		lookup = (void *)kp.addr;
		unregister_kprobe(&kp);
	}
	return lookup ? lookup(name) : 0;
}

static int fbt_resolve(void)
{
	fbt_kallsyms_each = (void *)fbt_kallsyms_lookup_name("kallsyms_on_each_symbol");
	fbt_module_kallsyms_each =
		(void *)fbt_kallsyms_lookup_name("module_kallsyms_on_each_symbol");
	fbt_ftrace_location = (void *)fbt_kallsyms_lookup_name("ftrace_location");
	fbt_within_kprobe_blacklist =
		(void *)fbt_kallsyms_lookup_name("within_kprobe_blacklist");
	if (!fbt_kallsyms_each || !fbt_module_kallsyms_each || !fbt_ftrace_location ||
	    !fbt_within_kprobe_blacklist) {
		pr_err("cannot find the kernel's symbol walkers\n");
		return -ENOENT;
	}
	return 0;
}

static int __init fbt_init(void)
{
	int err = fbt_resolve();

	if (err)
		return err;
	err = register_module_notifier(&fbt_module_nb);
	if (err)
		return err;
	err = dtrace_register("fbt", &fbt_attr, DTRACE_PRIV_KERNEL, &fbt_pops, NULL, &fbt_id);
	if (err)
		unregister_module_notifier(&fbt_module_nb);
	return err;
}

static void __exit fbt_exit(void)
{
	struct fbt_fn *fn, *tmp;

	WARN_ON(dtrace_unregister(fbt_id));
	unregister_module_notifier(&fbt_module_nb);
	mutex_lock(&fbt_lock);
	/* Nothing is enabled (the core held us while anything was). */
	WARN_ON_ONCE(fbt_ops_registered);
	list_for_each_entry(fn, &fbt_fns, list)
		WARN_ON_ONCE(fn->krp);
	mutex_unlock(&fbt_lock);
	synchronize_rcu();
	list_for_each_entry_safe(fn, tmp, &fbt_fns, list)
		kfree(fn);
}

module_init(fbt_init);
module_exit(fbt_exit);

MODULE_DESCRIPTION("DTrace fbt provider: kernel function entry (ftrace) and return (kretprobes)");
MODULE_LICENSE("GPL");
