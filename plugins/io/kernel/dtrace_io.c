// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_io.c - the io provider's kernel half (the Dynamic Tracing Guide's
 * "io Provider"), from the block layer's tracepoints. The probes are the
 * userspace plugin's rows that say .kmod (plugins/io/io_plugin.cc), under
 * the same names; their one native argument, the struct request, is
 * args[0..2] through lib/dtrace/io.d's bufinfo_t, devinfo_t and
 * fileinfo_t:
 *
 *   tracepoint          probe                        arguments
 *   block_rq_issue      blk_mq_start_request:start   arg0 the request
 *   block_rq_complete   blk_update_request:done      arg0 the request
 *
 * wait-start and wait-done have no tracepoint (see the plugin).
 *
 * The tracepoints are found by name (for_each_kernel_tracepoint) and each
 * is registered while its probe is enabled. Handlers run where the block
 * layer issues and completes requests, completion in interrupt context;
 * dtrace_probe() takes no sleeping lock. The core's synchronize_rcu() after
 * a disable waits for running handlers, module exit waits with
 * tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_io: " fmt

#include <linux/blk-mq.h>
#include <linux/blk_types.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <dtrace/provider.h>
#include <dtrace/tracepoints.h>

/* The tracepoints, by the index of dt_io_tps[]. */
enum { DT_TP_ISSUE, DT_TP_COMPLETE, DT_TP_N };

/* The probes. */
enum { DT_P_START, DT_P_DONE, DT_P_N };

static const struct {
	const char *func;
	const char *name;
	unsigned int tp;
} dt_io_probes[DT_P_N] = {
	[DT_P_START] = { "blk_mq_start_request", "start", DT_TP_ISSUE },
	[DT_P_DONE] = { "blk_update_request", "done", DT_TP_COMPLETE },
};

static dtrace_provider_id_t dt_io_id;
static dtrace_id_t dt_io_on[DT_P_N];	/* enabled probe ids, 0 = off */

/* illumos sdt.c stab_attr (the Guide's "io Stability"). */
static const dtrace_pattr_t dt_io_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

/* ==== Probe context ================================================== */

static inline void dt_io_fire(unsigned int probe, struct request *rq)
{
	dtrace_id_t id = READ_ONCE(dt_io_on[probe]);

	if (id)
		dtrace_probe(id, (uintptr_t)rq, 0, 0, 0, 0, 0);
}

static void dt_io_issue(void *data, struct request *rq)
{
	dt_io_fire(DT_P_START, rq);
}

static void dt_io_complete(void *data, struct request *rq, blk_status_t error,
			   unsigned int nr_bytes)
{
	dt_io_fire(DT_P_DONE, rq);
}

/* ==== Tracepoints ==================================================== */

static struct dtrace_tp dt_io_tps[DT_TP_N] = {
	[DT_TP_ISSUE] = { "block_rq_issue", dt_io_issue },
	[DT_TP_COMPLETE] = { "block_rq_complete", dt_io_complete },
};

/* ==== Provider operations ============================================ */

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_io_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_io_tps[dt_io_probes[i].tp].tp)
			dtrace_probe_create(dt_io_id, "vmlinux", dt_io_probes[i].func,
					    dt_io_probes[i].name, 1, DTRACE_PARG(i));
	provided = true;
}

static int dt_io_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	unsigned int t;
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	t = dt_io_probes[i].tp;
	err = dtrace_tp_get(&dt_io_tps[t]);
	if (err)
		return err;
	WRITE_ONCE(dt_io_on[i], id);
	return 0;
}

static void dt_io_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	unsigned int t;

	if (i >= DT_P_N)
		return;
	t = dt_io_probes[i].tp;
	WRITE_ONCE(dt_io_on[i], 0);
	dtrace_tp_put(&dt_io_tps[t]);
}

static const dtrace_pops_t dt_io_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_io_provide,
	.dtps_enable = dt_io_enable,
	.dtps_disable = dt_io_disable,
};

static int __init dt_io_init(void)
{
	dtrace_tp_find(dt_io_tps, DT_TP_N);
	/* Probes are created by dt_io_provide, which the core calls. */
	return dtrace_register("io", &dt_io_attr, DTRACE_PRIV_USER, &dt_io_pops, NULL,
			       &dt_io_id);
}

static void __exit dt_io_exit_module(void)
{
	WARN_ON(dtrace_unregister(dt_io_id));
	/* No handler of ours still runs once this returns. */
	tracepoint_synchronize_unregister();
}

module_init(dt_io_init);
module_exit(dt_io_exit_module);

MODULE_DESCRIPTION("DTrace io provider: block layer tracepoints");
MODULE_LICENSE("GPL");
