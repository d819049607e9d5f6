// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_ip.c - the ip provider's kernel half (the Dynamic Tracing Guide's
 * "ip Provider") for the kmod engine, from the network core's tracepoints.
 * The probes are the userspace plugin's (plugins/ip/ip_plugin.cc), with
 * the same native arguments, which lib/dtrace (net.d, ip.d) translates:
 * every argument is the packet, a struct sk_buff *.
 *
 *   tracepoint              probe      filter
 *   net:net_dev_queue       send       IP version 4 or 6
 *   net:netif_receive_skb   receive    IP version 4 or 6
 *
 * The IP header is read where the bpf engine's filter reads it:
 * skb->head + skb->network_header (set by the stack before it hands a
 * packet to a device; by GRO and loopback before receive). A packet
 * without one is not seen.
 *
 * The tracepoints are found by name and each is registered while its
 * probe is enabled (dtrace/tracepoints.h). Handlers run where the kernel sends and receives (softirq
 * included), preemption disabled; the core's synchronize_rcu() after a
 * disable waits for them, and module exit waits with
 * tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_ip: " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/tracepoint.h>

#include <dtrace/provider.h>
#include <dtrace/tracepoints.h>

/* The probes, in the userspace plugin's order; each has its tracepoint. */
enum { DT_P_RECEIVE, DT_P_SEND, DT_P_N };

static void dt_ip_receive(void *data, struct sk_buff *skb);
static void dt_ip_send(void *data, struct sk_buff *skb);

static const char *const dt_ip_names[DT_P_N] = {
	[DT_P_RECEIVE] = "receive",
	[DT_P_SEND] = "send",
};

static struct dtrace_tp dt_ip_tps[DT_P_N] = {
	[DT_P_RECEIVE] = { "netif_receive_skb", dt_ip_receive },
	[DT_P_SEND] = { "net_dev_queue", dt_ip_send },
};

static dtrace_provider_id_t dt_ip_id;
static dtrace_id_t dt_ip_on[DT_P_N];	/* enabled probe ids, 0 = off */

/* The Guide's "ip Stability". */
static const dtrace_pattr_t dt_ip_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

/* ==== Probe context ================================================== */

/* The IP version of the packet's header (4, 6), or 0: none. */
static unsigned int dt_ip_version(const struct sk_buff *skb)
{
	unsigned int v;

	if (!skb->network_header)
		return 0;
	v = skb->head[skb->network_header] >> 4;
	return v == 4 || v == 6 ? v : 0;
}

static void dt_ip_fire(unsigned int probe, const struct sk_buff *skb)
{
	dtrace_id_t id = READ_ONCE(dt_ip_on[probe]);
	uintptr_t p = (uintptr_t)skb;

	if (id && dt_ip_version(skb))
		dtrace_probe(id, p, p, p, p, p, p);
}

static void dt_ip_receive(void *data, struct sk_buff *skb)
{
	dt_ip_fire(DT_P_RECEIVE, skb);
}

static void dt_ip_send(void *data, struct sk_buff *skb)
{
	dt_ip_fire(DT_P_SEND, skb);
}

/* ==== Provider operations ============================================ */

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_ip_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_ip_tps[i].tp)
			dtrace_probe_create(dt_ip_id, "vmlinux", "", dt_ip_names[i], 1,
					    DTRACE_PARG(i));
	provided = true;
}

static int dt_ip_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	err = dtrace_tp_get(&dt_ip_tps[i]);
	if (err)
		return err;
	WRITE_ONCE(dt_ip_on[i], id);
	return 0;
}

static void dt_ip_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);

	if (i >= DT_P_N)
		return;
	WRITE_ONCE(dt_ip_on[i], 0);
	dtrace_tp_put(&dt_ip_tps[i]);
}

static const dtrace_pops_t dt_ip_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_ip_provide,
	.dtps_enable = dt_ip_enable,
	.dtps_disable = dt_ip_disable,
};

static int __init dt_ip_init(void)
{
	dtrace_tp_find(dt_ip_tps, DT_P_N);
	/* Probes are created by dt_ip_provide, which the core calls. */
	return dtrace_register("ip", &dt_ip_attr, DTRACE_PRIV_USER, &dt_ip_pops, NULL,
			       &dt_ip_id);
}

static void __exit dt_ip_exit(void)
{
	WARN_ON(dtrace_unregister(dt_ip_id));
	/* No handler of ours still runs once this returns. */
	tracepoint_synchronize_unregister();
}

module_init(dt_ip_init);
module_exit(dt_ip_exit);

MODULE_DESCRIPTION("DTrace ip provider: IPv4 and IPv6 packets sent and received");
MODULE_LICENSE("GPL");
