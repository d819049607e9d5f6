// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_udp.c - the udp provider's kernel half (the Dynamic Tracing Guide's
 * "udp Provider") for the kmod engine, from the network core's
 * tracepoints, as on the bpf engine: Linux has none in udp_sendmsg() or
 * udp_rcv(), so datagrams are seen where they meet a device. The probes
 * are the userspace plugin's (plugins/udp/udp_plugin.cc), with the same
 * native arguments, which lib/dtrace (net.d, udp.d) translates: args[0]
 * to args[4] are the packet, a struct sk_buff *.
 *
 *   tracepoint              probe      filter
 *   net:net_dev_queue       send       IPv4 protocol or IPv6 next header UDP
 *   net:netif_receive_skb   receive    the same
 *
 * The IP header is read where the bpf engine's filter reads it:
 * skb->head + skb->network_header. A packet without one, an IPv6
 * datagram behind extension headers and an IPv4 fragment after the
 * first are not seen.
 *
 * The tracepoints are not exported to modules: they are found by name
 * (for_each_kernel_tracepoint) and each is registered while its probe is
 * enabled. Handlers run where the kernel sends and receives (softirq
 * included), preemption disabled; the core's synchronize_rcu() after a
 * disable waits for them, and module exit waits with
 * tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_udp: " fmt

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <net/ip.h>

#include <dtrace/provider.h>

/* The probes, in the userspace plugin's order; each has its tracepoint. */
enum { DT_P_RECEIVE, DT_P_SEND, DT_P_N };

static void dt_udp_receive(void *data, struct sk_buff *skb);
static void dt_udp_send(void *data, struct sk_buff *skb);

static struct {
	const char *name;	/* the probe */
	const char *tp_name;	/* its tracepoint */
	void *func;
	struct tracepoint *tp;
} dt_udp_probes[DT_P_N] = {
	[DT_P_RECEIVE] = { "receive", "netif_receive_skb", dt_udp_receive },
	[DT_P_SEND] = { "send", "net_dev_queue", dt_udp_send },
};

static dtrace_provider_id_t dt_udp_id;
static dtrace_id_t dt_udp_on[DT_P_N];	/* enabled probe ids, 0 = off */

/* The Guide's "udp Stability". */
static const dtrace_pattr_t dt_udp_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

/* parg: 1 + the probe's index, so that it is never NULL. */
#define DT_UDP_PARG(i)	((void *)(uintptr_t)((i) + 1))
#define DT_UDP_IDX(parg)	((uintptr_t)(parg) - 1)

/* ==== Probe context ================================================== */

/* Whether the packet is a UDP datagram (its first fragment). */
static bool dt_udp_is_udp(const struct sk_buff *skb)
{
	const u8 *nh = skb->head + skb->network_header;

	if (!skb->network_header)
		return false;
	switch (nh[0] >> 4) {
	case 4:
		return ((const struct iphdr *)nh)->protocol == IPPROTO_UDP &&
		       !(((const struct iphdr *)nh)->frag_off & htons(IP_OFFSET));
	case 6:
		return ((const struct ipv6hdr *)nh)->nexthdr == IPPROTO_UDP;
	default:
		return false;
	}
}

static void dt_udp_fire(unsigned int probe, const struct sk_buff *skb)
{
	dtrace_id_t id = READ_ONCE(dt_udp_on[probe]);
	uintptr_t p = (uintptr_t)skb;

	if (id && dt_udp_is_udp(skb))
		dtrace_probe(id, p, p, p, p, p, 0);
}

static void dt_udp_receive(void *data, struct sk_buff *skb)
{
	dt_udp_fire(DT_P_RECEIVE, skb);
}

static void dt_udp_send(void *data, struct sk_buff *skb)
{
	dt_udp_fire(DT_P_SEND, skb);
}

/* ==== Provider operations ============================================ */

static void dt_udp_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < DT_P_N; i++)
		if (!strcmp(tp->name, dt_udp_probes[i].tp_name))
			dt_udp_probes[i].tp = tp;
}

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_udp_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_udp_probes[i].tp)
			dtrace_probe_create(dt_udp_id, "vmlinux", "", dt_udp_probes[i].name, 1,
					    DT_UDP_PARG(i));
	provided = true;
}

static int dt_udp_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DT_UDP_IDX(parg);
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	err = tracepoint_probe_register(dt_udp_probes[i].tp, dt_udp_probes[i].func, NULL);
	if (err)
		return err;
	WRITE_ONCE(dt_udp_on[i], id);
	return 0;
}

static void dt_udp_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DT_UDP_IDX(parg);

	if (i >= DT_P_N)
		return;
	WRITE_ONCE(dt_udp_on[i], 0);
	tracepoint_probe_unregister(dt_udp_probes[i].tp, dt_udp_probes[i].func, NULL);
}

static const dtrace_pops_t dt_udp_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_udp_provide,
	.dtps_enable = dt_udp_enable,
	.dtps_disable = dt_udp_disable,
};

static int __init dt_udp_init(void)
{
	unsigned int i;

	for_each_kernel_tracepoint(dt_udp_find_tp, NULL);
	for (i = 0; i < DT_P_N; i++)
		if (!dt_udp_probes[i].tp)
			pr_info("no %s tracepoint: udp:::%s is absent\n", dt_udp_probes[i].tp_name,
				dt_udp_probes[i].name);
	/* Probes are created by dt_udp_provide, which the core calls. */
	return dtrace_register("udp", &dt_udp_attr, DTRACE_PRIV_USER, &dt_udp_pops, NULL,
			       &dt_udp_id);
}

static void __exit dt_udp_exit(void)
{
	WARN_ON(dtrace_unregister(dt_udp_id));
	/* No handler of ours still runs once this returns. */
	tracepoint_synchronize_unregister();
}

module_init(dt_udp_init);
module_exit(dt_udp_exit);

MODULE_DESCRIPTION("DTrace udp provider: UDP datagrams sent and received");
MODULE_LICENSE("GPL");
