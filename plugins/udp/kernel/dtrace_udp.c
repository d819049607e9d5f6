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
 * The tracepoints are found by name and each is registered while its
 * probe is enabled (dtrace/tracepoints.h). Handlers run where the kernel sends and receives (softirq
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
#include <linux/tracepoint.h>
#include <net/ip.h>

#include <dtrace/provider.h>
#include <dtrace/tracepoints.h>

/* The probes, in the userspace plugin's order; each has its tracepoint. */
enum { DT_P_RECEIVE, DT_P_SEND, DT_P_N };

static void dt_udp_receive(void *data, struct sk_buff *skb);
static void dt_udp_send(void *data, struct sk_buff *skb);

static const char *const dt_udp_names[DT_P_N] = {
	[DT_P_RECEIVE] = "receive",
	[DT_P_SEND] = "send",
};

static struct dtrace_tp dt_udp_tps[DT_P_N] = {
	[DT_P_RECEIVE] = { "netif_receive_skb", dt_udp_receive },
	[DT_P_SEND] = { "net_dev_queue", dt_udp_send },
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

/* Every probe whose tracepoint exists, from the first call on. */
static void dt_udp_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_udp_tps[i].tp)
			dtrace_probe_create(dt_udp_id, "vmlinux", "", dt_udp_names[i], 1,
					    DTRACE_PARG(i));
	provided = true;
}

static int dt_udp_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	err = dtrace_tp_get(&dt_udp_tps[i]);
	if (err)
		return err;
	WRITE_ONCE(dt_udp_on[i], id);
	return 0;
}

static void dt_udp_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);

	if (i >= DT_P_N)
		return;
	WRITE_ONCE(dt_udp_on[i], 0);
	dtrace_tp_put(&dt_udp_tps[i]);
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
	dtrace_tp_find(dt_udp_tps, DT_P_N);
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
