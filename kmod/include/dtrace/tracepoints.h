/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dtrace/tracepoints.h - kernel tracepoints as a provider module's probe
 * sources: a table of them, found by name when the module loads and each
 * registered while at least one probe that reads it is enabled. The kernel
 * halves of syscall, io, ip, udp, proc, sched, tcp and lockstat are such
 * tables.
 *
 * Tracepoints are not exported to modules by symbol; for_each_kernel_
 * tracepoint() is, and finds them by name. A tracepoint this kernel lacks
 * stays NULL: the provider does not create the probes that need it, and
 * dtrace_tp_find() says so once in the kernel log.
 *
 * These are static inline helpers, not core exports: the core module
 * exports only the provider API (dtrace/provider.h) and knows nothing of
 * where providers' events come from. pr_info() here prints with the
 * including module's pr_fmt.
 *
 * Locking: dtrace_tp_get()/dtrace_tp_put() count users without a lock of
 * their own; call them from dtps_enable/dtps_disable, which the core
 * serializes (its probe lock). Module exit must call
 * tracepoint_synchronize_unregister() after dtrace_unregister(), so that
 * no handler still runs when the module's text goes away.
 */
#ifndef _DTRACE_TRACEPOINTS_H
#define _DTRACE_TRACEPOINTS_H

#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

/* One tracepoint a provider reads. */
struct dtrace_tp {
	const char *name;	/* the tracepoint; NULL: a row that is no tracepoint */
	void *func;		/* our handler, of the tracepoint's prototype */
	struct tracepoint *tp;	/* found by dtrace_tp_find(); NULL: absent */
	unsigned int users;	/* enabled probes that read it (probe lock) */
};

struct dtrace_tp_table {
	struct dtrace_tp *tps;
	unsigned int n;
};

static inline void dtrace_tp_match(struct tracepoint *tp, void *priv)
{
	const struct dtrace_tp_table *t = priv;
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (t->tps[i].name && !strcmp(tp->name, t->tps[i].name))
			t->tps[i].tp = tp;
}

/*
 * Find the n tracepoints of tps by name, once, at module init. Rows
 * without a name are skipped. Returns how many were found; each named one
 * that is missing is reported in the kernel log.
 */
static inline unsigned int dtrace_tp_find(struct dtrace_tp *tps, unsigned int n)
{
	struct dtrace_tp_table t = { tps, n };
	unsigned int i, found = 0;

	for_each_kernel_tracepoint(dtrace_tp_match, &t);
	for (i = 0; i < n; i++) {
		if (tps[i].tp)
			found++;
		else if (tps[i].name)
			pr_info("no %s tracepoint: its probes are absent\n", tps[i].name);
	}
	return found;
}

/*
 * A probe reading t is being enabled: register the handler on the first
 * user. Returns 0 or the kernel's error (-ENOENT for an absent tracepoint,
 * which a provider that did not create the probe never sees).
 */
static inline int dtrace_tp_get(struct dtrace_tp *t)
{
	int err;

	if (!t->tp)
		return -ENOENT;
	if (t->users == 0) {
		err = tracepoint_probe_register(t->tp, t->func, NULL);
		if (err)
			return err;
	}
	t->users++;
	return 0;
}

/* The reverse of a successful dtrace_tp_get(): unregister on the last user. */
static inline void dtrace_tp_put(struct dtrace_tp *t)
{
	if (WARN_ON_ONCE(t->users == 0) || --t->users)
		return;
	tracepoint_probe_unregister(t->tp, t->func, NULL);
}

/*
 * A probe's private argument (parg) as 1 + an index into the provider's
 * table, so that it is never NULL; DTRACE_PARG_IDX() gives the index back
 * (callers check it against their table's size).
 */
#define DTRACE_PARG(i)		((void *)(uintptr_t)((i) + 1))
#define DTRACE_PARG_IDX(parg)	((uintptr_t)(parg) - 1)

#endif /* _DTRACE_TRACEPOINTS_H */
