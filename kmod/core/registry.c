// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - providers and probes (illumos "DTrace Provider-to-Framework
 * API Functions" and "DTrace Probe Management Functions").
 *
 *   Provider API   dtrace_register, dtrace_unregister, dtrace_invalidate,
 *                  dtrace_probe_create[_flags], dtrace_probe_lookup,
 *                  dtrace_probe_arg
 *   Matching       dtrace_match_glob, dtrace_probe_matches, dtrace_probe_next,
 *                  dtrace_provide_all, dtrace_provider_find
 *   Module pins    dtrace_pins_open/close: one reference on every provider
 *                  module per open consumer (Oracle's dtrace_pmod_add_consumer)
 *   Module notifier  dtps_provide_module for modules that become live
 *
 * The probe table is an xarray indexed by probe id (1-based); probe
 * context reads it with xa_load() (RCU), everything else changes it under
 * dtrace_lock. A probe is erased, then synchronize_rcu(), then freed.
 */
#define pr_fmt(fmt) "dtrace: " fmt

#include <linux/module.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "dtrace_impl.h"

DEFINE_MUTEX(dtrace_provider_lock);
DEFINE_MUTEX(dtrace_lock);
DEFINE_XARRAY_ALLOC1(dtrace_probes);
LIST_HEAD(dtrace_providers);

static u32 dtrace_next_provid = 1;

/* ==== Matching ===================================================== */

/*
 * DTrace's glob (illumos gmatch): * any run, ? one character, [...] a set
 * with ranges and ! or ^ negation, \ escapes the next character. An empty
 * pattern matches anything (an empty probe description field). Iterative,
 * with one backtrack point for the last *.
 */
static bool glob_set(const char **pp, char c)
{
	const char *p = *pp + 1;
	bool neg = false, hit = false;

	if (*p == '!' || *p == '^') {
		neg = true;
		p++;
	}
	if (*p == ']') {		/* a leading ] is literal */
		hit |= c == ']';
		p++;
	}
	while (*p && *p != ']') {
		char lo = *p, hi;

		if (lo == '\\' && p[1])
			lo = *++p;
		hi = lo;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = p[2];
			p += 2;
		}
		if (c >= lo && c <= hi)
			hit = true;
		p++;
	}
	if (*p != ']')
		return false;		/* unterminated: matches nothing */
	*pp = p + 1;
	return hit != neg;
}

bool dtrace_match_glob(const char *pattern, const char *s)
{
	const char *p = pattern, *star = NULL, *sback = NULL;

	if (!pattern || !*pattern)
		return true;
	for (;;) {
		if (*p == '*') {
			while (*p == '*')
				p++;
			star = p;
			sback = s;
			continue;
		}
		if (!*s) {
			if (!*p)
				return true;
			goto backtrack;
		}
		if (*p == '?') {
			p++;
			s++;
			continue;
		}
		if (*p == '[') {
			const char *q = p;

			if (glob_set(&q, *s)) {
				p = q;
				s++;
				continue;
			}
			goto backtrack;
		}
		if (*p == '\\' && p[1])
			p++;
		if (*p && *p == *s) {
			p++;
			s++;
			continue;
		}
backtrack:
		if (!star || !*sback)
			return false;
		p = star;
		s = ++sback;
	}
}

bool dtrace_probe_matches(const struct dtrace_probe *p, const char *prov,
			  const char *mod, const char *func, const char *name)
{
	return dtrace_match_glob(prov, p->prov->name) &&
	       dtrace_match_glob(mod, p->mod) &&
	       dtrace_match_glob(func, p->func) &&
	       dtrace_match_glob(name, p->name);
}

struct dtrace_probe *dtrace_probe_next(u32 id, const dtrace_probedesc_t *desc)
{
	struct dtrace_probe *p;
	unsigned long index = id ? id : 1;

	lockdep_assert_held(&dtrace_lock);
	xa_for_each_start(&dtrace_probes, index, p, index) {
		if (!desc || dtrace_probe_matches(p, desc->dtpd_provider, desc->dtpd_mod,
						  desc->dtpd_func, desc->dtpd_name))
			return p;
	}
	return NULL;
}

struct dtrace_provider *dtrace_provider_find(const char *name, u32 minid)
{
	struct dtrace_provider *prov, *best = NULL;

	lockdep_assert_held(&dtrace_provider_lock);
	list_for_each_entry(prov, &dtrace_providers, list) {
		if (name && name[0]) {
			if (!strcmp(prov->name, name))
				return prov;
			continue;
		}
		if (prov->id >= minid && (!best || prov->id < best->id))
			best = prov;
	}
	return best;
}

void dtrace_provide_all(const dtrace_probedesc_t *desc)
{
	struct dtrace_provider *prov;

	mutex_lock(&dtrace_provider_lock);
	list_for_each_entry(prov, &dtrace_providers, list) {
		if (prov->defunct || !prov->pops->dtps_provide)
			continue;
		if (desc && !dtrace_match_glob(desc->dtpd_provider, prov->name))
			continue;
		prov->pops->dtps_provide(prov->arg, desc);
	}
	mutex_unlock(&dtrace_provider_lock);
}

u32 dtrace_nprobes(void)
{
	struct dtrace_provider *prov;
	u32 n = 0;

	mutex_lock(&dtrace_provider_lock);
	list_for_each_entry(prov, &dtrace_providers, list)
		n += prov->nprobes;
	mutex_unlock(&dtrace_provider_lock);
	return n;
}

u32 dtrace_nproviders(void)
{
	struct dtrace_provider *prov;
	u32 n = 0;

	mutex_lock(&dtrace_provider_lock);
	list_for_each_entry(prov, &dtrace_providers, list)
		n++;
	mutex_unlock(&dtrace_provider_lock);
	return n;
}

/* ==== Module pins ================================================== */

static int dtrace_pin(struct dtrace_state *state, struct module *mod)
{
	struct dtrace_pin *pin;

	if (!mod)
		return 0;
	pin = kmalloc(sizeof(*pin), GFP_KERNEL);
	if (!pin)
		return -ENOMEM;
	if (!try_module_get(mod)) {	/* it is going away: nothing to pin */
		kfree(pin);
		return 0;
	}
	pin->mod = mod;
	list_add(&pin->list, &state->pins);
	return 0;
}

static void dtrace_unpin(struct dtrace_state *state, struct module *mod)
{
	struct dtrace_pin *pin, *tmp;

	list_for_each_entry_safe(pin, tmp, &state->pins, list) {
		if (pin->mod != mod)
			continue;
		list_del(&pin->list);
		module_put(pin->mod);
		kfree(pin);
		return;
	}
}

/* Called with dtrace_provider_lock held, at open (state not yet listed). */
int dtrace_pins_open(struct dtrace_state *state)
{
	struct dtrace_provider *prov;
	int err;

	lockdep_assert_held(&dtrace_provider_lock);
	list_for_each_entry(prov, &dtrace_providers, list) {
		err = dtrace_pin(state, prov->pops->dtps_owner);
		if (err) {
			dtrace_pins_close(state);
			return err;
		}
	}
	return 0;
}

void dtrace_pins_close(struct dtrace_state *state)
{
	struct dtrace_pin *pin, *tmp;

	list_for_each_entry_safe(pin, tmp, &state->pins, list) {
		list_del(&pin->list);
		module_put(pin->mod);
		kfree(pin);
	}
}

/* ==== Provider API ================================================= */

static bool dtrace_name_ok(const char *name)
{
	size_t i, n;

	if (!name)
		return false;
	n = strnlen(name, DTRACE_PROVNAMELEN);
	if (n == 0 || n == DTRACE_PROVNAMELEN)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

static bool dtrace_attr_ok(const dtrace_attribute_t *a)
{
	return a->dtat_name <= DTRACE_STABILITY_MAX && a->dtat_data <= DTRACE_STABILITY_MAX &&
	       a->dtat_class <= DTRACE_CLASS_MAX;
}

/**
 * dtrace_register() - make a provider known (contract 1 in dtrace/provider.h).
 * @name: provider name
 * @pattr: stability attributes
 * @priv: DTRACE_PRIV_*
 * @pops: operations, valid until dtrace_unregister() returns
 * @arg: first argument of every hook
 * @idp: the handle, on success
 *
 * Return: 0 or a negative errno.
 */
int dtrace_register(const char *name, const dtrace_pattr_t *pattr, u32 priv,
		    const dtrace_pops_t *pops, void *arg, dtrace_provider_id_t *idp)
{
	struct dtrace_provider *prov;
	struct dtrace_state *state;
	int err = 0;

	if (!dtrace_name_ok(name) || !pattr || !pops || !idp ||
	    pops->dtps_version != DTRACE_PROVIDER_API_VERSION ||
	    (priv & ~DTRACE_PRIV_ALL) ||
	    (!pops->dtps_provide && !pops->dtps_provide_module) ||
	    !pops->dtps_enable || !pops->dtps_disable)
		return -EINVAL;
	if (!dtrace_attr_ok(&pattr->dtpa_provider) || !dtrace_attr_ok(&pattr->dtpa_mod) ||
	    !dtrace_attr_ok(&pattr->dtpa_func) || !dtrace_attr_ok(&pattr->dtpa_name) ||
	    !dtrace_attr_ok(&pattr->dtpa_args))
		return -EINVAL;

	prov = kzalloc(sizeof(*prov), GFP_KERNEL);
	if (!prov)
		return -ENOMEM;
	strscpy(prov->name, name, sizeof(prov->name));
	prov->attr = *pattr;
	prov->priv = priv;
	prov->pops = pops;
	prov->arg = arg;

	mutex_lock(&dtrace_provider_lock);
	if (dtrace_provider_find(name, 0)) {
		err = -EEXIST;
		goto out_free;
	}
	/* Open consumers pin the new provider's module too. */
	mutex_lock(&dtrace_lock);
	list_for_each_entry(state, &dtrace_states, list) {
		err = dtrace_pin(state, pops->dtps_owner);
		if (err)
			break;
	}
	if (err) {		/* undo: a failed init frees the module */
		list_for_each_entry_continue_reverse(state, &dtrace_states, list)
			dtrace_unpin(state, pops->dtps_owner);
	}
	mutex_unlock(&dtrace_lock);
	if (err)
		goto out_free;
	prov->id = dtrace_next_provid++;
	list_add_tail(&prov->list, &dtrace_providers);
	*idp = (dtrace_provider_id_t)prov;
	if (dtrace_nopen && pops->dtps_provide)
		pops->dtps_provide(arg, NULL);
	mutex_unlock(&dtrace_provider_lock);
	pr_debug("provider %s registered\n", name);
	return 0;

out_free:
	mutex_unlock(&dtrace_provider_lock);
	kfree(prov);
	return err;
}
EXPORT_SYMBOL_GPL(dtrace_register);

static void dtrace_probe_free(struct dtrace_probe *p)
{
	kfree(p->mod);
	kfree(p->func);
	kfree(p->name);
	kfree(p);
}

/**
 * dtrace_unregister() - remove a provider (contract 2 in dtrace/provider.h).
 * @id: the handle dtrace_register() returned
 *
 * Return: 0, -EBUSY while a probe of it is enabled, -EINVAL.
 */
int dtrace_unregister(dtrace_provider_id_t id)
{
	struct dtrace_provider *prov = (struct dtrace_provider *)id, *it;
	struct dtrace_probe *p, **gone = NULL;
	unsigned long index;
	u32 n = 0, i;
	bool found = false;

	if (!prov)
		return -EINVAL;
	mutex_lock(&dtrace_provider_lock);
	list_for_each_entry(it, &dtrace_providers, list)
		found |= it == prov;
	if (!found) {
		mutex_unlock(&dtrace_provider_lock);
		return -EINVAL;
	}
	mutex_lock(&dtrace_lock);
	xa_for_each(&dtrace_probes, index, p) {
		if (p->prov != prov)
			continue;
		if (p->necbs) {
			mutex_unlock(&dtrace_lock);
			mutex_unlock(&dtrace_provider_lock);
			return -EBUSY;
		}
		n++;
	}
	if (n) {
		gone = kvmalloc_array(n, sizeof(*gone), GFP_KERNEL);
		if (!gone) {
			mutex_unlock(&dtrace_lock);
			mutex_unlock(&dtrace_provider_lock);
			return -ENOMEM;
		}
	}
	i = 0;
	xa_for_each(&dtrace_probes, index, p) {
		if (p->prov == prov && i < n) {
			xa_erase(&dtrace_probes, index);
			gone[i++] = p;
		}
	}
	list_del(&prov->list);
	mutex_unlock(&dtrace_lock);
	mutex_unlock(&dtrace_provider_lock);

	/* No probe context can still see them once a grace period passed. */
	synchronize_rcu();
	for (i = 0; i < n; i++) {
		if (prov->pops->dtps_destroy)
			prov->pops->dtps_destroy(prov->arg, gone[i]->id, gone[i]->arg);
		dtrace_probe_free(gone[i]);
	}
	kvfree(gone);
	pr_debug("provider %s unregistered\n", prov->name);
	kfree(prov);
	return 0;
}
EXPORT_SYMBOL_GPL(dtrace_unregister);

/**
 * dtrace_invalidate() - mark a provider defunct (contract 3).
 * @id: the provider handle
 */
void dtrace_invalidate(dtrace_provider_id_t id)
{
	struct dtrace_provider *prov = (struct dtrace_provider *)id;

	if (!prov)
		return;
	mutex_lock(&dtrace_provider_lock);
	mutex_lock(&dtrace_lock);
	prov->defunct = true;
	mutex_unlock(&dtrace_lock);
	mutex_unlock(&dtrace_provider_lock);
}
EXPORT_SYMBOL_GPL(dtrace_invalidate);

static char *dtrace_name_dup(const char *s, size_t max)
{
	if (!s)
		s = "";
	if (strnlen(s, max) == max)
		return NULL;
	return kstrdup(s, GFP_KERNEL);
}

/**
 * dtrace_probe_create() - create a probe (contract 4).
 * @prov: the provider handle
 * @mod: module name or NULL
 * @func: function name or NULL
 * @name: probe name
 * @aframes: artificial frames
 * @parg: per-probe data for the hooks
 *
 * Return: the probe id, or DTRACE_IDNONE.
 */
dtrace_id_t dtrace_probe_create(dtrace_provider_id_t prov, const char *mod,
				const char *func, const char *name, int aframes,
				void *parg)
{
	return dtrace_probe_create_flags(prov, mod, func, name, aframes, parg, 0);
}
EXPORT_SYMBOL_GPL(dtrace_probe_create);

/**
 * dtrace_probe_create_flags() - create a probe with flags (contract 4a).
 * @prov: the provider handle
 * @mod: module name or NULL
 * @func: function name or NULL
 * @name: probe name
 * @aframes: artificial frames
 * @parg: per-probe data for the hooks
 * @flags: DTRACE_PROBE_F_*
 *
 * Return: the probe id, or DTRACE_IDNONE.
 */
dtrace_id_t dtrace_probe_create_flags(dtrace_provider_id_t prov, const char *mod,
				      const char *func, const char *name, int aframes,
				      void *parg, u32 flags)
{
	struct dtrace_provider *pv = (struct dtrace_provider *)prov;
	struct dtrace_probe *p;
	u32 id;

	if (!pv || !name || !name[0] || pv->defunct || (flags & ~DTRACE_PROBE_F_ALL))
		return DTRACE_IDNONE;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return DTRACE_IDNONE;
	p->mod = dtrace_name_dup(mod, DTRACE_MODNAMELEN);
	p->func = dtrace_name_dup(func, DTRACE_FUNCNAMELEN);
	p->name = dtrace_name_dup(name, DTRACE_NAMELEN);
	if (!p->mod || !p->func || !p->name)
		goto fail;
	p->prov = pv;
	p->arg = parg;
	p->aframes = aframes;
	p->flags = flags;

	mutex_lock(&dtrace_lock);
	if (xa_alloc(&dtrace_probes, &id, p, XA_LIMIT(1, INT_MAX), GFP_KERNEL)) {
		mutex_unlock(&dtrace_lock);
		goto fail;
	}
	p->id = id;
	pv->nprobes++;
	mutex_unlock(&dtrace_lock);
	return id;
fail:
	dtrace_probe_free(p);
	return DTRACE_IDNONE;
}
EXPORT_SYMBOL_GPL(dtrace_probe_create_flags);

/**
 * dtrace_probe_lookup() - find a probe of a provider (contract 5).
 * @prov: the provider handle
 * @mod: module or NULL (any)
 * @func: function or NULL (any)
 * @name: name or NULL (any)
 *
 * Return: the lowest matching id, or DTRACE_IDNONE.
 */
dtrace_id_t dtrace_probe_lookup(dtrace_provider_id_t prov, const char *mod,
				const char *func, const char *name)
{
	struct dtrace_probe *p;
	unsigned long index;
	dtrace_id_t id = DTRACE_IDNONE;

	mutex_lock(&dtrace_lock);
	xa_for_each(&dtrace_probes, index, p) {
		if (p->prov != (struct dtrace_provider *)prov)
			continue;
		if ((mod && strcmp(mod, p->mod)) || (func && strcmp(func, p->func)) ||
		    (name && strcmp(name, p->name)))
			continue;
		id = p->id;
		break;
	}
	mutex_unlock(&dtrace_lock);
	return id;
}
EXPORT_SYMBOL_GPL(dtrace_probe_lookup);

/**
 * dtrace_probe_arg() - a probe's parg (contract 6).
 * @prov: the provider handle
 * @id: one of its probes
 *
 * Return: the parg, or NULL.
 */
void *dtrace_probe_arg(dtrace_provider_id_t prov, dtrace_id_t id)
{
	struct dtrace_probe *p;
	void *arg = NULL;

	mutex_lock(&dtrace_lock);
	p = xa_load(&dtrace_probes, id);
	if (p && p->prov == (struct dtrace_provider *)prov)
		arg = p->arg;
	mutex_unlock(&dtrace_lock);
	return arg;
}
EXPORT_SYMBOL_GPL(dtrace_probe_arg);

/* ==== Module notifier: dtps_provide_module ========================= */

static int dtrace_module_notify(struct notifier_block *nb, unsigned long val, void *data)
{
	struct module *mod = data;
	struct dtrace_provider *prov;

	if (val != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	mutex_lock(&dtrace_provider_lock);
	list_for_each_entry(prov, &dtrace_providers, list)
		if (!prov->defunct && prov->pops->dtps_provide_module)
			prov->pops->dtps_provide_module(prov->arg, mod);
	mutex_unlock(&dtrace_provider_lock);
	return NOTIFY_DONE;
}

static struct notifier_block dtrace_module_nb = {
	.notifier_call = dtrace_module_notify,
};

int dtrace_registry_init(void)
{
	return register_module_notifier(&dtrace_module_nb);
}

void dtrace_registry_exit(void)
{
	unregister_module_notifier(&dtrace_module_nb);
	WARN_ON_ONCE(!xa_empty(&dtrace_probes));
	xa_destroy(&dtrace_probes);
}
