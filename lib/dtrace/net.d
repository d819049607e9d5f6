/*
 * SPDX-License-Identifier: MIT
 *
 * net.d - network types and constants shared by the network providers'
 * libraries and by scripts (Dynamic Tracing Guide, "ip Provider" and
 * inet_ntop()): the address families inet_ntop() takes, with Linux's
 * values, ipaddr_t and in6_addr_t, conninfo_t for application
 * protocol providers, and the argument types the tcp, udp and ip
 * providers share (Guide, "tcp Provider"): pktinfo_t, csinfo_t and
 * ipinfo_t, with translators from the packet, a struct sk_buff *: its IP
 * header at skb->head + skb->network_header (IPv4 or IPv6, told apart by
 * the version nibble), its socket skb->sk. tcp.d and udp.d add the
 * translators from their sockets. Without kernel BTF (struct in6_addr,
 * struct sk_buff) this library is skipped.
 */
#pragma D depends_on module vmlinux

/* Address families for inet_ntop() (Linux include/linux/socket.h). */
inline int AF_INET = 2;
inline int AF_INET6 = 10;

/* An IPv4 address, in network byte order, and an IPv6 address. */
typedef uint32_t ipaddr_t;
typedef struct in6_addr in6_addr_t;

/* The network stack a probe fired in: Linux's struct net, as an integer. */
typedef uint64_t netstackid_t;

typedef struct conninfo {
	string ci_local;		/* local host address */
	string ci_remote;		/* remote host address */
	string ci_protocol;		/* protocol ("ipv4", "ipv6", ...) */
} conninfo_t;

typedef struct pktinfo {
	uintptr_t pkt_addr;		/* the struct sk_buff */
} pktinfo_t;

typedef struct csinfo {
	uintptr_t cs_addr;		/* the struct sock */
	uint64_t cs_cid;		/* connection id */
	pid_t cs_pid;			/* associated PID (not known: 0) */
	zoneid_t cs_zoneid;		/* zone (0) */
} csinfo_t;

typedef struct ipinfo {
	uint8_t ip_ver;			/* IP version (4, 6) */
	uint16_t ip_plength;		/* payload length */
	string ip_saddr;		/* source address */
	string ip_daddr;		/* destination address */
} ipinfo_t;

translator pktinfo_t < struct sk_buff *S > {
	pkt_addr = (uintptr_t)S;
};

translator csinfo_t < struct sk_buff *S > {
	cs_addr = (uintptr_t)S->sk;
	cs_cid = (uint64_t)S->sk;
	cs_pid = 0;
	cs_zoneid = 0;
};

/*
 * The packet's IP header, version in the top nibble of its first byte:
 * struct iphdr or struct ipv6hdr. tcp:::accept-refused: the reply's
 * addresses. No packet (S NULL: a tcp state transition): the inbound
 * segment's addresses, from the socket (args[1], a struct sock *).
 */
translator ipinfo_t < struct sk_buff *S > {
	ip_ver = S == NULL ? (((struct sock *)arg1)->__sk_common.skc_family == AF_INET ? 4 : 6) :
	    *(uint8_t *)(S->head + S->network_header) >> 4;
	ip_plength = S == NULL ? 0 : (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    ntohs(((struct iphdr *)(S->head + S->network_header))->tot_len) -
	    (*(uint8_t *)(S->head + S->network_header) & 0xf) * 4 :
	    ntohs(((struct ipv6hdr *)(S->head + S->network_header))->payload_len);
	ip_saddr = S == NULL ? (((struct sock *)arg1)->__sk_common.skc_family == AF_INET ?
	    inet_ntoa((void *)&((struct sock *)arg1)->__sk_common.skc_daddr) :
	    inet_ntoa6((void *)&((struct sock *)arg1)->__sk_common.skc_v6_daddr)) :
	    (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    inet_ntoa((void *)(S->head + S->network_header +
	    (probename == "accept-refused" ? 16 : 12))) :
	    inet_ntoa6((void *)(S->head + S->network_header +
	    (probename == "accept-refused" ? 24 : 8)));
	ip_daddr = S == NULL ? (((struct sock *)arg1)->__sk_common.skc_family == AF_INET ?
	    inet_ntoa((void *)&((struct sock *)arg1)->__sk_common.skc_rcv_saddr) :
	    inet_ntoa6((void *)&((struct sock *)arg1)->__sk_common.skc_v6_rcv_saddr)) :
	    (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    inet_ntoa((void *)(S->head + S->network_header +
	    (probename == "accept-refused" ? 12 : 16))) :
	    inet_ntoa6((void *)(S->head + S->network_header +
	    (probename == "accept-refused" ? 8 : 24)));
};
