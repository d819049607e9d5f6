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
 * The tracepoints are not exported to modules: they are found by name
 * (for_each_kernel_tracepoint) and each is registered while its probe is
 * enabled. Handlers run where the kernel sends and receives (softirq
 * included), preemption disabled; the core's synchronize_rcu() after a
 * disable waits for them, and module exit waits with
 * tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_ip: " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <dtrace/provider.h>

/* The probes, in the userspace plugin's order; each has its tracepoint. */
enum { DT_P_RECEIVE, DT_P_SEND, DT_P_N };

static void dt_ip_receive(void *data, struct sk_buff *skb);
static void dt_ip_send(void *data, struct sk_buff *skb);

static struct {
	const char *name;	/* the probe */
	const char *tp_name;	/* its tracepoint */
	void *func;
	struct tracepoint *tp;
} dt_ip_probes[DT_P_N] = {
	[DT_P_RECEIVE] = { "receive", "netif_receive_skb", dt_ip_receive },
	[DT_P_SEND] = { "send", "net_dev_queue", dt_ip_send },
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

/* parg: 1 + the probe's index, so that it is never NULL. */
#define DT_IP_PARG(i)	((void *)(uintptr_t)((i) + 1))
#define DT_IP_IDX(parg)	((uintptr_t)(parg) - 1)

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

static void dt_ip_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < DT_P_N; i++)
		if (!strcmp(tp->name, dt_ip_probes[i].tp_name))
			dt_ip_probes[i].tp = tp;
}

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_ip_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_ip_probes[i].tp)
			dtrace_probe_create(dt_ip_id, "vmlinux", "", dt_ip_probes[i].name, 1,
					    DT_IP_PARG(i));
	provided = true;
}

static int dt_ip_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DT_IP_IDX(parg);
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	err = tracepoint_probe_register(dt_ip_probes[i].tp, dt_ip_probes[i].func, NULL);
	if (err)
		return err;
	WRITE_ONCE(dt_ip_on[i], id);
	return 0;
}

static void dt_ip_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DT_IP_IDX(parg);

	if (i >= DT_P_N)
		return;
	WRITE_ONCE(dt_ip_on[i], 0);
	tracepoint_probe_unregister(dt_ip_probes[i].tp, dt_ip_probes[i].func, NULL);
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
	unsigned int i;

	for_each_kernel_tracepoint(dt_ip_find_tp, NULL);
	for (i = 0; i < DT_P_N; i++)
		if (!dt_ip_probes[i].tp)
			pr_info("no %s tracepoint: ip:::%s is absent\n", dt_ip_probes[i].tp_name,
				dt_ip_probes[i].name);
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
