/*
 * SPDX-License-Identifier: MIT
 *
 * tcp.d - the argument types of the tcp provider (Dynamic Tracing Guide,
 * "tcp Provider"): pktinfo_t, csinfo_t, ipinfo_t, tcpsinfo_t,
 * tcplsinfo_t, tcpinfo_t, and translators from the Linux native types
 * the provider's probes carry (plugins/tcp: struct sk_buff *, struct
 * sock *, the IP header as __u8 *, struct tcp_sock *, struct tcphdr *,
 * and the previous state as int). Network byte order is converted with
 * ntohs()/ntohl(); addresses are formatted as inet_ntoa()/inet_ntoa6().
 *
 * tcps_state and tcplsinfo_t's tcps_state carry Linux's TCP_* state
 * numbers (include/net/tcp_states.h), named by the inlines below with
 * the Guide's TCP_STATE_* names. Members Linux cannot supply (cs_cid's
 * connection id is the socket address; tcps_iss, tcps_sack_*) are not
 * translated. Without kernel BTF this library is skipped.
 */
#pragma D depends_on module vmlinux

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

typedef struct tcpsinfo {
	uintptr_t tcps_addr;
	int tcps_local;			/* is delivered locally, boolean */
	int tcps_active;		/* active open (from here), boolean */
	uint16_t tcps_lport;		/* local port */
	uint16_t tcps_rport;		/* remote port */
	string tcps_laddr;		/* local address */
	string tcps_raddr;		/* remote address */
	int32_t tcps_state;		/* TCP state (TCP_STATE_*) */
	uint32_t tcps_iss;		/* initial sequence # sent */
	uint32_t tcps_suna;		/* sequence # sent but unacked */
	uint32_t tcps_snxt;		/* next sequence # to send */
	uint32_t tcps_rack;		/* sequence # we have acked */
	uint32_t tcps_rnxt;		/* next sequence # expected */
	uint32_t tcps_swnd;		/* send window size */
	int32_t tcps_snd_ws;		/* send window scaling */
	uint32_t tcps_rwnd;		/* receive window size */
	int32_t tcps_rcv_ws;		/* receive window scaling */
	uint32_t tcps_cwnd;		/* congestion window */
	uint32_t tcps_cwnd_ssthresh;	/* threshold for congestion avoidance */
	uint32_t tcps_sack_fack;	/* SACK sequence # we have acked */
	uint32_t tcps_sack_snxt;	/* next SACK seq # for retransmission */
	uint32_t tcps_rto;		/* round-trip timeout, msec */
	uint32_t tcps_mss;		/* max segment size */
	int tcps_retransmit;		/* retransmit send event, boolean */
} tcpsinfo_t;

typedef struct tcplsinfo {
	int32_t tcps_state;		/* previous TCP state */
} tcplsinfo_t;

typedef struct tcpinfo {
	uint16_t tcp_sport;		/* source port */
	uint16_t tcp_dport;		/* destination port */
	uint32_t tcp_seq;		/* sequence number */
	uint32_t tcp_ack;		/* acknowledgment number */
	uint8_t tcp_offset;		/* data offset, in bytes */
	uint8_t tcp_flags;		/* flags */
	uint16_t tcp_window;		/* window size */
	uint16_t tcp_checksum;		/* checksum */
	uint16_t tcp_urgent;		/* urgent data pointer */
	struct tcphdr *tcp_hdr;		/* raw TCP header */
} tcpinfo_t;

/* Linux TCP states (include/net/tcp_states.h) under the Guide's names. */
inline int32_t TCP_STATE_ESTABLISHED = 1;
inline int32_t TCP_STATE_SYN_SENT = 2;
inline int32_t TCP_STATE_SYN_RECEIVED = 3;
inline int32_t TCP_STATE_FIN_WAIT_1 = 4;
inline int32_t TCP_STATE_FIN_WAIT_2 = 5;
inline int32_t TCP_STATE_TIME_WAIT = 6;
inline int32_t TCP_STATE_CLOSED = 7;
inline int32_t TCP_STATE_CLOSE_WAIT = 8;
inline int32_t TCP_STATE_LAST_ACK = 9;
inline int32_t TCP_STATE_LISTEN = 10;
inline int32_t TCP_STATE_CLOSING = 11;

/* tcp_flags bits */
inline uint8_t TH_FIN = 0x01;
inline uint8_t TH_SYN = 0x02;
inline uint8_t TH_RST = 0x04;
inline uint8_t TH_PUSH = 0x08;
inline uint8_t TH_ACK = 0x10;
inline uint8_t TH_URG = 0x20;
inline uint8_t TH_ECE = 0x40;
inline uint8_t TH_CWR = 0x80;

translator pktinfo_t < struct sk_buff *S > {
	pkt_addr = (uintptr_t)S;
};

translator csinfo_t < struct sock *S > {
	cs_addr = (uintptr_t)S;
	cs_cid = (uint64_t)S;
	cs_pid = 0;
	cs_zoneid = 0;
};

/* I: the IP header, version in the top nibble of the first byte. */
translator ipinfo_t < __u8 *I > {
	ip_ver = *I >> 4;
	ip_plength = (*I >> 4) == 4 ?
	    ((*(I + 2) << 8) | *(I + 3)) - (*I & 0xf) * 4 : (*(I + 4) << 8) | *(I + 5);
	ip_saddr = (*I >> 4) == 4 ? inet_ntoa((void *)(I + 12)) :
	    inet_ntoa6((void *)(I + 8));
	ip_daddr = (*I >> 4) == 4 ? inet_ntoa((void *)(I + 16)) :
	    inet_ntoa6((void *)(I + 24));
};

/* AF_INET is 2; IPv6 sockets keep their addresses in skc_v6_*. */
translator tcpsinfo_t < struct tcp_sock *T > {
	tcps_addr = (uintptr_t)T;
	tcps_lport = ntohs(T->inet_conn.icsk_inet.inet_sport);
	tcps_rport = ntohs(T->inet_conn.icsk_inet.sk.__sk_common.skc_dport);
	tcps_laddr = T->inet_conn.icsk_inet.sk.__sk_common.skc_family == 2 ?
	    inet_ntoa((void *)&T->inet_conn.icsk_inet.sk.__sk_common.skc_rcv_saddr) :
	    inet_ntoa6((void *)&T->inet_conn.icsk_inet.sk.__sk_common.skc_v6_rcv_saddr);
	tcps_raddr = T->inet_conn.icsk_inet.sk.__sk_common.skc_family == 2 ?
	    inet_ntoa((void *)&T->inet_conn.icsk_inet.sk.__sk_common.skc_daddr) :
	    inet_ntoa6((void *)&T->inet_conn.icsk_inet.sk.__sk_common.skc_v6_daddr);
	tcps_state = T->inet_conn.icsk_inet.sk.__sk_common.skc_state;
	tcps_suna = T->snd_una;
	tcps_snxt = T->snd_nxt;
	tcps_rack = T->rcv_wup;
	tcps_rnxt = T->rcv_nxt;
	tcps_swnd = T->snd_wnd;
	tcps_rwnd = T->rcv_wnd;
	tcps_cwnd = T->snd_cwnd;
	tcps_cwnd_ssthresh = T->snd_ssthresh;
	tcps_rto = T->inet_conn.icsk_rto;
	tcps_mss = T->mss_cache;
	tcps_retransmit = 0;
};

translator tcplsinfo_t < int S > {
	tcps_state = S;
};

/* The flags are the 14th byte of the header, the data offset (in 32-bit
 * words) the top nibble of the 13th. */
translator tcpinfo_t < struct tcphdr *T > {
	tcp_sport = ntohs(T->source);
	tcp_dport = ntohs(T->dest);
	tcp_seq = ntohl(T->seq);
	tcp_ack = ntohl(T->ack_seq);
	tcp_offset = (*((uint8_t *)T + 12) >> 4) * 4;
	tcp_flags = *((uint8_t *)T + 13);
	tcp_window = ntohs(T->window);
	tcp_checksum = ntohs(T->check);
	tcp_urgent = ntohs(T->urg_ptr);
	tcp_hdr = T;
};
