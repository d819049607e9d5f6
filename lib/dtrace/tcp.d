/*
 * SPDX-License-Identifier: MIT
 *
 * tcp.d - the argument types of the tcp provider (Dynamic Tracing Guide,
 * "tcp Provider"): pktinfo_t, csinfo_t, ipinfo_t, tcpsinfo_t,
 * tcplsinfo_t, tcpinfo_t, and translators from the Linux native types
 * the provider's probes carry (plugins/tcp), the same for every probe
 * (a clause may name several): args[0], [2], [4] the packet, a
 * struct sk_buff * (its IP header at skb->head + skb->network_header,
 * its TCP header at skb->head + skb->transport_header), args[1] and [3]
 * the connection, a struct sock * / struct tcp_sock *, and state-change's
 * args[5] the previous state as int. Where the tracepoint gives only one
 * of them the other is NULL and the translators find it through the
 * other argument: the socket of a packet is skb->sk (arg0); a probe
 * without a packet (a state transition) gets its IP and TCP information
 * from the socket (arg1), as the inbound segment it stands for would
 * carry it (connect-established, accept-established, connect-refused). accept-refused sees the refused SYN: its
 * information is that of the reset sent in reply (addresses and ports
 * swapped). Network byte order is converted with ntohs()/ntohl();
 * addresses are formatted as inet_ntoa()/inet_ntoa6().
 *
 * tcps_state and tcplsinfo_t's tcps_state carry Linux's TCP_* state
 * numbers (include/net/tcp_states.h), named by the inlines below with
 * the Guide's TCP_STATE_* names. Members Linux cannot supply (cs_cid's
 * connection id is the socket address; tcps_iss, tcps_sack_*) are not
 * translated. Without kernel BTF this library is skipped.
 */
#pragma D depends_on module vmlinux

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

/* The TCP header as the translators read it (include/uapi/linux/tcp.h
 * has bit fields, which D does not read). */
typedef struct dt_tcphdr {
	uint16_t th_sport;
	uint16_t th_dport;
	uint32_t th_seq;
	uint32_t th_ack;
	uint8_t th_offx2;
	uint8_t th_flags;
	uint16_t th_win;
	uint16_t th_sum;
	uint16_t th_urp;
} dt_tcphdr_t;

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

/* A state transition has no packet. */
translator csinfo_t < struct sock *S > {
	cs_addr = S != NULL ? (uintptr_t)S :
	    arg0 != 0 ? (uintptr_t)((struct sk_buff *)arg0)->sk : 0;
	cs_cid = S != NULL ? (uint64_t)S :
	    arg0 != 0 ? (uint64_t)((struct sk_buff *)arg0)->sk : 0;
	cs_pid = 0;
	cs_zoneid = 0;
};

/*
 * The connection: args[3], or the packet's socket (skb->sk of args[0])
 * for the probes whose tracepoint gives only the packet; with neither
 * (accept-refused's SYN has no socket), the reply's view from the
 * packet's headers (local: the packet's destination). Ports and
 * addresses are in the struct sock_common every kind of TCP socket
 * begins with (full, request, time-wait); the sequence numbers and
 * windows only in a full one (not TIME_WAIT, not NEW_SYN_RECV: 0 there).
 * The transitions fire before the socket changes state: tcps_state is
 * the new one (state-change: raw argument 2, which args[2], void there,
 * carries; ESTABLISHED for connect- and accept-established).
 */
translator tcpsinfo_t < struct tcp_sock *T > {
	tcps_addr = (uintptr_t)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk);
	tcps_local = (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_family == AF_INET ?
	    (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_rcv_saddr == (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_daddr : 0;
	tcps_active = 0;
	tcps_lport = (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL ? (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_num :
	    ntohs(((dt_tcphdr_t *)(((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->transport_header))->th_dport);
	tcps_rport = (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL ? ntohs((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_dport) :
	    ntohs(((dt_tcphdr_t *)(((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->transport_header))->th_sport);
	tcps_laddr = (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL ? ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_family == AF_INET ?
	    inet_ntoa((void *)&(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_rcv_saddr) :
	    inet_ntoa6((void *)&(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_v6_rcv_saddr)) :
	    (*(uint8_t *)(((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->network_header) >> 4) == 4 ? inet_ntoa((void *)((((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->network_header) + 16)) :
	    inet_ntoa6((void *)((((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->network_header) + 24));
	tcps_raddr = (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL ? ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_family == AF_INET ?
	    inet_ntoa((void *)&(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_daddr) :
	    inet_ntoa6((void *)&(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_v6_daddr)) :
	    (*(uint8_t *)(((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->network_header) >> 4) == 4 ? inet_ntoa((void *)((((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->network_header) + 12)) :
	    inet_ntoa6((void *)((((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->network_header) + 8));
	tcps_state = probename == "state-change" ? arg2 :
	    probename == "connect-established" || probename == "accept-established" ?
	    TCP_STATE_ESTABLISHED :
	    (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL ?
	    (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state :
	    TCP_STATE_CLOSED;
	tcps_iss = 0;
	tcps_suna = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->snd_una : 0;
	tcps_snxt = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->snd_nxt : 0;
	tcps_rack = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->rcv_wup : 0;
	tcps_rnxt = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->rcv_nxt : 0;
	tcps_swnd = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->snd_wnd : 0;
	tcps_snd_ws = 0;
	tcps_rwnd = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->rcv_wnd : 0;
	tcps_rcv_ws = 0;
	tcps_cwnd = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->snd_cwnd : 0;
	tcps_cwnd_ssthresh = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->snd_ssthresh : 0;
	tcps_sack_fack = 0;
	tcps_sack_snxt = 0;
	tcps_rto = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->inet_conn.icsk_rto : 0;
	tcps_mss = ((T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk) != NULL && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 6 && (T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk)->__sk_common.skc_state != 12) ?
	    ((struct tcp_sock *)(T != NULL ? (struct sock *)T : ((struct sk_buff *)arg0)->sk))->mss_cache : 0;
	tcps_retransmit = 0;
};

translator tcplsinfo_t < int S > {
	tcps_state = S;
};

/* The flags are the 14th byte of the header, the data offset (in 32-bit
 * words) the top nibble of the 13th. */
translator tcpinfo_t < struct tcphdr *T > {
	tcp_sport = ntohs(((dt_tcphdr_t *)T)->th_sport);
	tcp_dport = ntohs(((dt_tcphdr_t *)T)->th_dport);
	tcp_seq = ntohl(((dt_tcphdr_t *)T)->th_seq);
	tcp_ack = ntohl(((dt_tcphdr_t *)T)->th_ack);
	tcp_offset = (((dt_tcphdr_t *)T)->th_offx2 >> 4) * 4;
	tcp_flags = ((dt_tcphdr_t *)T)->th_flags;
	tcp_window = ntohs(((dt_tcphdr_t *)T)->th_win);
	tcp_checksum = ntohs(((dt_tcphdr_t *)T)->th_sum);
	tcp_urgent = ntohs(((dt_tcphdr_t *)T)->th_urp);
	tcp_hdr = T;
};

/*
 * The packet's TCP header; accept-refused: the reply's ports and flags.
 * No packet (S NULL): the inbound segment the probe stands for, from
 * the socket (args[1]): connect-established's SYN-ACK,
 * accept-established's ACK, connect-refused's RST.
 */
translator tcpinfo_t < struct sk_buff *S > {
	tcp_sport = S == NULL ? ntohs(((struct sock *)arg1)->__sk_common.skc_dport) :
	    ntohs(probename == "accept-refused" ? ((dt_tcphdr_t *)(S->head + S->transport_header))->th_dport : ((dt_tcphdr_t *)(S->head + S->transport_header))->th_sport);
	tcp_dport = S == NULL ? ((struct sock *)arg1)->__sk_common.skc_num :
	    ntohs(probename == "accept-refused" ? ((dt_tcphdr_t *)(S->head + S->transport_header))->th_sport : ((dt_tcphdr_t *)(S->head + S->transport_header))->th_dport);
	tcp_seq = S == NULL ? ((struct tcp_sock *)arg1)->rcv_nxt -
	    (probename == "connect-established" ? 1 : 0) : ntohl(((dt_tcphdr_t *)(S->head + S->transport_header))->th_seq);
	tcp_ack = S == NULL ? ((struct tcp_sock *)arg1)->snd_una : ntohl(((dt_tcphdr_t *)(S->head + S->transport_header))->th_ack);
	tcp_offset = S == NULL ? 20 : (((dt_tcphdr_t *)(S->head + S->transport_header))->th_offx2 >> 4) * 4;
	tcp_flags = S == NULL ? (probename == "connect-established" ? TH_SYN | TH_ACK :
	    probename == "connect-refused" ? TH_RST | TH_ACK : TH_ACK) :
	    probename == "accept-refused" ? TH_RST | TH_ACK : ((dt_tcphdr_t *)(S->head + S->transport_header))->th_flags;
	tcp_window = S == NULL ? 0 : ntohs(((dt_tcphdr_t *)(S->head + S->transport_header))->th_win);
	tcp_checksum = S == NULL ? 0 : ntohs(((dt_tcphdr_t *)(S->head + S->transport_header))->th_sum);
	tcp_urgent = S == NULL ? 0 : ntohs(((dt_tcphdr_t *)(S->head + S->transport_header))->th_urp);
	tcp_hdr = S == NULL ? NULL : (struct tcphdr *)(S->head + S->transport_header);
};
