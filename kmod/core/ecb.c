// SPDX-License-Identifier: GPL-2.0
/*
 * ecb.c - DTrace ECB Functions: putting an enabled probe on its probe's
 * chain and taking it off (illumos dtrace_ecb_enable/_disable).
 *
 * A probe's first ECB enables it: the core takes a reference on the
 * provider's module (so it cannot be unloaded while the probe can fire)
 * and calls its dtps_enable. Its last ECB disables it: dtps_disable, then
 * the reference is dropped. ECBs are appended (EPID order is firing
 * order) and unlinked with rcu_assign_pointer(); the caller frees an
 * unlinked ECB only after synchronize_rcu().
 */
#include <linux/module.h>

#include "dtrace_impl.h"

int dtrace_ecb_attach(struct dtrace_ecb *ecb)
{
	struct dtrace_probe *p = ecb->probe;
	struct dtrace_provider *prov = p->prov;
	struct module *owner = prov->pops->dtps_owner;
	struct dtrace_ecb *last;
	int err;

	lockdep_assert_held(&dtrace_lock);
	if (!p->necbs) {
		if (prov->defunct)
			return -ESRCH;
		if (owner && !try_module_get(owner))
			return -ESRCH;
		err = prov->pops->dtps_enable(prov->arg, p->id, p->arg);
		if (err) {
			module_put(owner);
			return err < 0 ? err : -EIO;
		}
	}
	last = rcu_dereference_protected(p->ecbs, lockdep_is_held(&dtrace_lock));
	if (!last) {
		rcu_assign_pointer(p->ecbs, ecb);
	} else {
		struct dtrace_ecb *next;

		while ((next = rcu_dereference_protected(last->next,
							 lockdep_is_held(&dtrace_lock))))
			last = next;
		rcu_assign_pointer(last->next, ecb);
	}
	p->necbs++;
	return 0;
}

void dtrace_ecb_detach(struct dtrace_ecb *ecb)
{
	struct dtrace_probe *p = ecb->probe;
	struct dtrace_provider *prov = p->prov;
	struct dtrace_ecb __rcu **link = &p->ecbs;
	struct dtrace_ecb *cur;

	lockdep_assert_held(&dtrace_lock);
	while ((cur = rcu_dereference_protected(*link, lockdep_is_held(&dtrace_lock)))) {
		if (cur == ecb) {
			/* Readers already on ecb still find the rest of the chain. */
			rcu_assign_pointer(*link, rcu_dereference_protected(
					   ecb->next, lockdep_is_held(&dtrace_lock)));
			break;
		}
		link = &cur->next;
	}
	if (WARN_ON_ONCE(!cur))
		return;
	if (--p->necbs == 0) {
		prov->pops->dtps_disable(prov->arg, p->id, p->arg);
		module_put(prov->pops->dtps_owner);
	}
}
