// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace_tcp.c - the tcp provider's kernel half (the Dynamic Tracing
 * Guide's "tcp Provider") for the kmod engine, from the kernel's
 * tracepoints and one pair of kprobes. Every probe is tcp:vmlinux::<name>
 * with the native arguments the userspace plugin (plugins/tcp) describes
 * and lib/dtrace/tcp.d translates, the same as the bpf engine's:
 *
 *   args[0], [2], [4]  the packet, a struct sk_buff * (NULL: none)
 *   args[1], [3]       the connection, a struct sock * (NULL: the
 *                      translators use skb->sk)
 *   state-change       args[2] the new state, args[5] the previous one
 *
 *   source                     probe                filter
 *   sock:inet_sock_set_state   accept-established   TCP, SYN_RECV -> ESTABLISHED
 *                              connect-established  TCP, SYN_SENT -> ESTABLISHED
 *                              state-change         TCP
 *   tcp:tcp_receive_reset      connect-refused      socket in SYN_SENT
 *   net:net_dev_queue          send                 IPv4/IPv6 protocol TCP
 *                              connect-request      ... flags SYN without ACK
 *   tcp:tcp_probe              receive              (ESTABLISHED segments)
 *   kprobe tcp_v4_send_reset,  accept-refused       no socket, the segment a
 *          tcp_v6_send_reset                        SYN without ACK
 *
 * accept-refused is a kprobe because this era's tcp_send_reset
 * tracepoint does not fire for a reset without a socket (newer kernels'
 * does, and the bpf engine uses it there). A kprobe that cannot be
 * placed (the function inlined) leaves that family's refusals unseen;
 * enabling fails only when neither can be placed.
 *
 * The tracepoints are found by name (for_each_kernel_tracepoint) and each
 * is registered while one of its probes is enabled; the kprobes likewise.
 * Handlers run where the kernel sends or receives (softirq included),
 * preemption disabled; the core's synchronize_rcu() after a disable waits
 * for them, and module exit waits with tracepoint_synchronize_unregister().
 */
#define pr_fmt(fmt) "dtrace_tcp: " fmt

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/tcp.h>
#include <linux/tracepoint.h>
#include <net/sock.h>
#include <net/tcp_states.h>

#include <dtrace/provider.h>
#include <dtrace/tracepoints.h>

#ifndef CONFIG_X86_64
#error "dtrace_tcp: the kprobes read x86-64's argument registers"
#endif

/* The sources, by the index of dt_tcp_src[]. */
enum { DT_S_STATE, DT_S_RRESET, DT_S_QUEUE, DT_S_PROBE, DT_S_SRESET, DT_S_N };

/* The probes, in the userspace plugin's order. */
enum {
	DT_P_ACCEPT_EST, DT_P_ACCEPT_REF, DT_P_CONNECT_REQ, DT_P_CONNECT_EST,
	DT_P_CONNECT_REF, DT_P_SEND, DT_P_RECEIVE, DT_P_STATE, DT_P_N
};

static const struct {
	const char *name;
	unsigned int src;
} dt_tcp_probes[DT_P_N] = {
	[DT_P_ACCEPT_EST] = { "accept-established", DT_S_STATE },
	[DT_P_ACCEPT_REF] = { "accept-refused", DT_S_SRESET },
	[DT_P_CONNECT_REQ] = { "connect-request", DT_S_QUEUE },
	[DT_P_CONNECT_EST] = { "connect-established", DT_S_STATE },
	[DT_P_CONNECT_REF] = { "connect-refused", DT_S_RRESET },
	[DT_P_SEND] = { "send", DT_S_QUEUE },
	[DT_P_RECEIVE] = { "receive", DT_S_PROBE },
	[DT_P_STATE] = { "state-change", DT_S_STATE },
};

static dtrace_provider_id_t dt_tcp_id;
static dtrace_id_t dt_tcp_on[DT_P_N];	/* enabled probe ids, 0 = off */

static const dtrace_pattr_t dt_tcp_attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

static inline dtrace_id_t dt_tcp_enabled(unsigned int probe)
{
	return READ_ONCE(dt_tcp_on[probe]);
}

/* ==== Probe context ================================================== */

/* A packet's segment: fire `probe` with the packet (and its socket, if given). */
static void dt_tcp_fire_pkt(unsigned int probe, const struct sk_buff *skb, const struct sock *sk)
{
	dtrace_id_t id = dt_tcp_enabled(probe);

	if (id)
		dtrace_probe(id, (uintptr_t)skb, (uintptr_t)sk, (uintptr_t)skb, (uintptr_t)sk,
			     (uintptr_t)skb, 0);
}

/* A transition without a packet: the socket. */
static void dt_tcp_fire_sock(unsigned int probe, const struct sock *sk)
{
	dtrace_id_t id = dt_tcp_enabled(probe);

	if (id)
		dtrace_probe(id, 0, (uintptr_t)sk, 0, (uintptr_t)sk, 0, 0);
}

static void dt_tcp_set_state(void *data, const struct sock *sk, const int oldstate,
			     const int newstate)
{
	dtrace_id_t id;

	if (sk->sk_protocol != IPPROTO_TCP)
		return;
	if (newstate == TCP_ESTABLISHED && oldstate == TCP_SYN_RECV)
		dt_tcp_fire_sock(DT_P_ACCEPT_EST, sk);
	else if (newstate == TCP_ESTABLISHED && oldstate == TCP_SYN_SENT)
		dt_tcp_fire_sock(DT_P_CONNECT_EST, sk);
	id = dt_tcp_enabled(DT_P_STATE);
	if (id)
		dtrace_probe(id, 0, (uintptr_t)sk, newstate, (uintptr_t)sk, 0, oldstate);
}

static void dt_tcp_receive_reset(void *data, struct sock *sk)
{
	if (READ_ONCE(sk->sk_state) == TCP_SYN_SENT)
		dt_tcp_fire_sock(DT_P_CONNECT_REF, sk);
}

/* The TCP header of an IPv4/IPv6 packet at skb's network header, or NULL. */
static const struct tcphdr *dt_tcp_header(const struct sk_buff *skb)
{
	const u8 *nh = skb->head + skb->network_header;

	if (!skb->network_header || !skb_transport_header_was_set(skb))
		return NULL;
	switch (nh[0] >> 4) {
	case 4:
		if (((const struct iphdr *)nh)->protocol != IPPROTO_TCP)
			return NULL;
		break;
	case 6:
		if (((const struct ipv6hdr *)nh)->nexthdr != IPPROTO_TCP)
			return NULL;
		break;
	default:
		return NULL;
	}
	return (const struct tcphdr *)(skb->head + skb->transport_header);
}

static void dt_tcp_dev_queue(void *data, struct sk_buff *skb)
{
	const struct tcphdr *th = dt_tcp_header(skb);

	if (!th)
		return;
	if (th->syn && !th->ack)
		dt_tcp_fire_pkt(DT_P_CONNECT_REQ, skb, NULL);
	dt_tcp_fire_pkt(DT_P_SEND, skb, NULL);
}

static void dt_tcp_probe_rcv(void *data, struct sock *sk, struct sk_buff *skb)
{
	dt_tcp_fire_pkt(DT_P_RECEIVE, skb, sk);
}

/* tcp_v4_send_reset(sk, skb) / tcp_v6_send_reset(sk, skb): di, si. */
static int dt_tcp_send_reset(struct kprobe *p, struct pt_regs *regs)
{
	const struct sk_buff *skb = (const struct sk_buff *)regs->si;
	const struct tcphdr *th;

	if (regs->di != 0 || !skb)
		return 0;
	th = (const struct tcphdr *)(skb->head + skb->transport_header);
	if (th->syn && !th->ack)
		dt_tcp_fire_pkt(DT_P_ACCEPT_REF, skb, NULL);
	return 0;
}

/* ==== Sources ======================================================== */

/* DT_S_SRESET is no tracepoint: its users count the kprobes' users. */
static struct dtrace_tp dt_tcp_src[DT_S_N] = {
	[DT_S_STATE] = { "inet_sock_set_state", dt_tcp_set_state },
	[DT_S_RRESET] = { "tcp_receive_reset", dt_tcp_receive_reset },
	[DT_S_QUEUE] = { "net_dev_queue", dt_tcp_dev_queue },
	[DT_S_PROBE] = { "tcp_probe", dt_tcp_probe_rcv },
	[DT_S_SRESET] = { NULL, NULL },	/* the kprobes below */
};

static const char *const dt_tcp_kp_names[] = { "tcp_v4_send_reset", "tcp_v6_send_reset" };
static struct kprobe dt_tcp_kps[ARRAY_SIZE(dt_tcp_kp_names)];
static bool dt_tcp_kp_on[ARRAY_SIZE(dt_tcp_kps)];

static void dt_tcp_kprobes_off(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dt_tcp_kps); i++) {
		if (dt_tcp_kp_on[i])
			unregister_kprobe(&dt_tcp_kps[i]);
		dt_tcp_kp_on[i] = false;
	}
}

static int dt_tcp_kprobes_on(void)
{
	unsigned int i, placed = 0;
	int err = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(dt_tcp_kps); i++) {
		/* A kprobe is registered afresh from a clean struct. */
		memset(&dt_tcp_kps[i], 0, sizeof(dt_tcp_kps[i]));
		dt_tcp_kps[i].symbol_name = dt_tcp_kp_names[i];
		dt_tcp_kps[i].pre_handler = dt_tcp_send_reset;
		err = register_kprobe(&dt_tcp_kps[i]);
		dt_tcp_kp_on[i] = err == 0;
		if (err)
			pr_info("cannot place a kprobe on %s (%d): its refusals are unseen\n",
				dt_tcp_kps[i].symbol_name, err);
		else
			placed++;
	}
	return placed ? 0 : err;
}

static int dt_tcp_src_get(unsigned int s)
{
	int err;

	if (s != DT_S_SRESET)
		return dtrace_tp_get(&dt_tcp_src[s]);
	if (dt_tcp_src[s].users == 0) {
		err = dt_tcp_kprobes_on();
		if (err)
			return err;
	}
	dt_tcp_src[s].users++;
	return 0;
}

static void dt_tcp_src_put(unsigned int s)
{
	if (s != DT_S_SRESET) {
		dtrace_tp_put(&dt_tcp_src[s]);
		return;
	}
	if (WARN_ON_ONCE(dt_tcp_src[s].users == 0) || --dt_tcp_src[s].users)
		return;
	dt_tcp_kprobes_off();
}

/* ==== Provider operations ============================================ */

static bool dt_tcp_has_src(unsigned int s)
{
	return s == DT_S_SRESET || dt_tcp_src[s].tp;
}

/* Every probe whose source exists, from the first call on. */
static void dt_tcp_provide(void *arg, const dtrace_probedesc_t *desc)
{
	static bool provided;
	unsigned int i;

	if (provided)
		return;
	for (i = 0; i < DT_P_N; i++)
		if (dt_tcp_has_src(dt_tcp_probes[i].src))
			dtrace_probe_create(dt_tcp_id, "vmlinux", "", dt_tcp_probes[i].name, 1,
					    DTRACE_PARG(i));
	provided = true;
}

static int dt_tcp_enable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);
	int err;

	if (i >= DT_P_N)
		return -EINVAL;
	err = dt_tcp_src_get(dt_tcp_probes[i].src);
	if (err)
		return err;
	WRITE_ONCE(dt_tcp_on[i], id);
	return 0;
}

static void dt_tcp_disable(void *arg, dtrace_id_t id, void *parg)
{
	unsigned long i = DTRACE_PARG_IDX(parg);

	if (i >= DT_P_N)
		return;
	WRITE_ONCE(dt_tcp_on[i], 0);
	dt_tcp_src_put(dt_tcp_probes[i].src);
}

static const dtrace_pops_t dt_tcp_pops = {
	.dtps_version = DTRACE_PROVIDER_API_VERSION,
	.dtps_owner = THIS_MODULE,
	.dtps_provide = dt_tcp_provide,
	.dtps_enable = dt_tcp_enable,
	.dtps_disable = dt_tcp_disable,
};

static int __init dt_tcp_init(void)
{
	dtrace_tp_find(dt_tcp_src, DT_S_N);
	/* Probes are created by dt_tcp_provide, which the core calls. */
	return dtrace_register("tcp", &dt_tcp_attr, DTRACE_PRIV_USER, &dt_tcp_pops, NULL,
			       &dt_tcp_id);
}

static void __exit dt_tcp_exit(void)
{
	WARN_ON(dtrace_unregister(dt_tcp_id));
	/* No handler of ours still runs once this returns. */
	tracepoint_synchronize_unregister();
}

module_init(dt_tcp_init);
module_exit(dt_tcp_exit);

MODULE_DESCRIPTION("DTrace tcp provider: TCP connection and segment probes");
MODULE_LICENSE("GPL");
