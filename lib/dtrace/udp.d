/*
 * SPDX-License-Identifier: MIT
 *
 * udp.d - the argument types of the udp provider (Dynamic Tracing Guide,
 * "udp Provider"): udpsinfo_t and udpinfo_t, with translators from the
 * packet, a struct sk_buff * (plugins/udp): its UDP header at
 * skb->head + skb->transport_header, its IP header at skb->head +
 * skb->network_header. udpsinfo_t is the socket's view of the datagram
 * (local: the source of a sent one, the destination of a received one),
 * read from the headers, so that an unconnected socket's peer is known;
 * udps_addr is the sending socket (skb->sk), 0 on receive (the socket is
 * not known yet where the packet is seen). pktinfo_t, csinfo_t and
 * ipinfo_t are net.d's. Without kernel BTF this library is skipped.
 */
#pragma D depends_on module vmlinux

typedef struct udpsinfo {
	uintptr_t udps_addr;		/* the struct sock */
	uint16_t udps_lport;		/* local port */
	uint16_t udps_rport;		/* remote port */
	string udps_laddr;		/* local address */
	string udps_raddr;		/* remote address */
} udpsinfo_t;

typedef struct udpinfo {
	uint16_t udp_sport;		/* source port */
	uint16_t udp_dport;		/* destination port */
	uint16_t udp_length;		/* total length (header + payload) */
	uint16_t udp_checksum;		/* checksum */
	struct udphdr *udp_hdr;		/* the raw UDP header */
} udpinfo_t;

translator udpinfo_t < struct sk_buff *S > {
	udp_sport = ntohs(((struct udphdr *)(S->head + S->transport_header))->source);
	udp_dport = ntohs(((struct udphdr *)(S->head + S->transport_header))->dest);
	udp_length = ntohs(((struct udphdr *)(S->head + S->transport_header))->len);
	udp_checksum = ntohs(((struct udphdr *)(S->head + S->transport_header))->check);
	udp_hdr = (struct udphdr *)(S->head + S->transport_header);
};

translator udpsinfo_t < struct sk_buff *S > {
	udps_addr = probename == "send" ? (uintptr_t)S->sk : 0;
	udps_lport = ntohs(probename == "send" ?
	    ((struct udphdr *)(S->head + S->transport_header))->source :
	    ((struct udphdr *)(S->head + S->transport_header))->dest);
	udps_rport = ntohs(probename == "send" ?
	    ((struct udphdr *)(S->head + S->transport_header))->dest :
	    ((struct udphdr *)(S->head + S->transport_header))->source);
	udps_laddr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    inet_ntoa((void *)(S->head + S->network_header +
	    (probename == "send" ? 12 : 16))) :
	    inet_ntoa6((void *)(S->head + S->network_header +
	    (probename == "send" ? 8 : 24)));
	udps_raddr = (*(uint8_t *)(S->head + S->network_header) >> 4) == 4 ?
	    inet_ntoa((void *)(S->head + S->network_header +
	    (probename == "send" ? 16 : 12))) :
	    inet_ntoa6((void *)(S->head + S->network_header +
	    (probename == "send" ? 24 : 8)));
};
