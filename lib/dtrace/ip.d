/*
 * SPDX-License-Identifier: MIT
 *
 * ip.d - the argument types of the ip provider (Dynamic Tracing Guide,
 * "ip Provider") that net.d does not hold: ifinfo_t, ipv4info_t and
 * ipv6info_t, with translators from the packet, a struct sk_buff *
 * (plugins/ip): its IP header at skb->head + skb->network_header, its
 * interface skb->dev. ipv4info_t of an IPv6 packet (and ipv6info_t of an
 * IPv4 one) is all zeros and empty strings: the Guide's NULL pointer
 * cannot be told apart from a translated argument here, so test ip_ver
 * (args[2]) or ipv4_ver first. pktinfo_t, csinfo_t and ipinfo_t are
 * net.d's; this library comes before it in name order, so it uses only
 * the kernel's types. Without kernel BTF this library is skipped.
 */
#pragma D depends_on module vmlinux

/*
 * The IP protocol numbers (illumos ip.d's IPPROTO_* inlines, the values
 * of Linux's include/uapi/linux/in.h and in6.h, which are IANA's), for
 * ipv4_protocol and ipv6_nexthdr.
 */
inline int IPPROTO_IP = 0;
inline int IPPROTO_HOPOPTS = 0;
inline int IPPROTO_ICMP = 1;
inline int IPPROTO_IGMP = 2;
inline int IPPROTO_ENCAP = 4;
inline int IPPROTO_TCP = 6;
inline int IPPROTO_EGP = 8;
inline int IPPROTO_PUP = 12;
inline int IPPROTO_UDP = 17;
inline int IPPROTO_IDP = 22;
inline int IPPROTO_IPV6 = 41;
inline int IPPROTO_ROUTING = 43;
inline int IPPROTO_FRAGMENT = 44;
inline int IPPROTO_RSVP = 46;
inline int IPPROTO_ESP = 50;
inline int IPPROTO_AH = 51;
inline int IPPROTO_ICMPV6 = 58;
inline int IPPROTO_NONE = 59;
inline int IPPROTO_DSTOPTS = 60;
inline int IPPROTO_PIM = 103;
inline int IPPROTO_SCTP = 132;
inline int IPPROTO_RAW = 255;
inline int IPPROTO_MAX = 256;

typedef struct ifinfo {
	string if_name;			/* interface name */
	int8_t if_local;		/* is delivered locally (loopback) */
	uint64_t if_ipstack;		/* the network namespace (struct net) */
	uintptr_t if_addr;		/* the struct net_device */
} ifinfo_t;

typedef struct ipv4info {
	uint8_t ipv4_ver;		/* IP version (4) */
	uint8_t ipv4_ihl;		/* header length, bytes */
	uint8_t ipv4_tos;		/* type of service field */
	uint16_t ipv4_length;		/* length (header + payload) */
	uint16_t ipv4_ident;		/* identification */
	uint8_t ipv4_flags;		/* IP flags */
	uint16_t ipv4_offset;		/* fragment offset */
	uint8_t ipv4_ttl;		/* time to live */
	uint8_t ipv4_protocol;		/* next level protocol */
	string ipv4_protostr;		/* next level protocol, as a string */
	uint16_t ipv4_checksum;		/* header checksum */
	uint32_t ipv4_src;		/* source address (network order) */
	uint32_t ipv4_dst;		/* destination address (network order) */
	string ipv4_saddr;		/* source address, string */
	string ipv4_daddr;		/* destination address, string */
	struct iphdr *ipv4_hdr;		/* the IPv4 header */
} ipv4info_t;

typedef struct ipv6info {
	uint8_t ipv6_ver;		/* IP version (6) */
	uint8_t ipv6_tclass;		/* traffic class */
	uint32_t ipv6_flow;		/* flow label */
	uint16_t ipv6_plen;		/* payload length */
	uint8_t ipv6_nexthdr;		/* next header protocol */
	string ipv6_nextstr;		/* next header protocol, as a string */
	uint8_t ipv6_hlim;		/* hop limit */
	struct in6_addr *ipv6_src;	/* source address */
	struct in6_addr *ipv6_dst;	/* destination address */
	string ipv6_saddr;		/* source address, string */
	string ipv6_daddr;		/* destination address, string */
	struct ipv6hdr *ipv6_hdr;	/* the IPv6 header */
} ipv6info_t;

/* IFF_LOOPBACK (include/uapi/linux/if.h) */
translator ifinfo_t < struct sk_buff *S > {
	if_name = S->dev != NULL ? stringof(S->dev->name) : "";
	if_local = S->dev != NULL ? (S->dev->flags & 0x8) != 0 : 0;
	if_ipstack = S->dev != NULL ? (uint64_t)S->dev->nd_net.net : 0;
	if_addr = (uintptr_t)S->dev;
};

/*
 * The header's fields, by byte offset where D cannot name them (bit
 * fields). ipv4_flags is the top nibble of the flags and fragment offset
 * word, as illumos ip.d takes it: 4 is Don't Fragment, 2 More Fragments.
 */
translator ipv4info_t < struct sk_buff *S > {
	ipv4_ver = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ? 4 : 0;
	ipv4_ihl = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    (*(uint8_t *)(S->head + S->network_header) & 0xf) * 4 : 0;
	ipv4_tos = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    *(uint8_t *)(S->head + S->network_header + 1) : 0;
	ipv4_length = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    ntohs(((struct iphdr *)(S->head + S->network_header))->tot_len) : 0;
	ipv4_ident = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    ntohs(((struct iphdr *)(S->head + S->network_header))->id) : 0;
	ipv4_flags = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    (ntohs(((struct iphdr *)(S->head + S->network_header))->frag_off) & 0xe000) >> 12 : 0;
	ipv4_offset = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    ntohs(((struct iphdr *)(S->head + S->network_header))->frag_off) & 0x1fff : 0;
	ipv4_ttl = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    *(uint8_t *)(S->head + S->network_header + 8) : 0;
	ipv4_protocol = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    *(uint8_t *)(S->head + S->network_header + 9) : 0;
	ipv4_protostr = (*(uint8_t *)(S->head + S->network_header) >> 4) != 4 ? "" :
	    *(uint8_t *)(S->head + S->network_header + 9) == 6 ? "TCP" :
	    *(uint8_t *)(S->head + S->network_header + 9) == 17 ? "UDP" :
	    *(uint8_t *)(S->head + S->network_header + 9) == 1 ? "ICMP" :
	    lltostr(*(uint8_t *)(S->head + S->network_header + 9));
	ipv4_checksum = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    ntohs(((struct iphdr *)(S->head + S->network_header))->check) : 0;
	ipv4_src = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    *(uint32_t *)(S->head + S->network_header + 12) : 0;
	ipv4_dst = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    *(uint32_t *)(S->head + S->network_header + 16) : 0;
	ipv4_saddr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    inet_ntoa((void *)(S->head + S->network_header + 12)) : "";
	ipv4_daddr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    inet_ntoa((void *)(S->head + S->network_header + 16)) : "";
	ipv4_hdr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    (struct iphdr *)(S->head + S->network_header) : NULL;
};

translator ipv6info_t < struct sk_buff *S > {
	ipv6_ver = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ? 6 : 0;
	ipv6_tclass = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    ((*(uint8_t *)(S->head + S->network_header) & 0xf) << 4) |
	    (*(uint8_t *)(S->head + S->network_header + 1) >> 4) : 0;
	ipv6_flow = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    ((*(uint8_t *)(S->head + S->network_header + 1) & 0xf) << 16) |
	    (*(uint8_t *)(S->head + S->network_header + 2) << 8) |
	    *(uint8_t *)(S->head + S->network_header + 3) : 0;
	ipv6_plen = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    ntohs(((struct ipv6hdr *)(S->head + S->network_header))->payload_len) : 0;
	ipv6_nexthdr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    *(uint8_t *)(S->head + S->network_header + 6) : 0;
	ipv6_nextstr = (*(uint8_t *)(S->head + S->network_header) >> 4) != 6 ? "" :
	    *(uint8_t *)(S->head + S->network_header + 6) == 6 ? "TCP" :
	    *(uint8_t *)(S->head + S->network_header + 6) == 17 ? "UDP" :
	    *(uint8_t *)(S->head + S->network_header + 6) == 58 ? "ICMPV6" :
	    lltostr(*(uint8_t *)(S->head + S->network_header + 6));
	ipv6_hlim = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    *(uint8_t *)(S->head + S->network_header + 7) : 0;
	ipv6_src = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    (struct in6_addr *)(S->head + S->network_header + 8) : NULL;
	ipv6_dst = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    (struct in6_addr *)(S->head + S->network_header + 24) : NULL;
	ipv6_saddr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    inet_ntoa6((void *)(S->head + S->network_header + 8)) : "";
	ipv6_daddr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    inet_ntoa6((void *)(S->head + S->network_header + 24)) : "";
	ipv6_hdr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    (struct ipv6hdr *)(S->head + S->network_header) : NULL;
};
