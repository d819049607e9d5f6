/*
 * SPDX-License-Identifier: MIT
 *
 * net.d - network types and constants shared by the network providers'
 * libraries and by scripts (Dynamic Tracing Guide, "ip Provider" and
 * inet_ntop()): the address families inet_ntop() takes, with Linux's
 * values, ipaddr_t and in6_addr_t, and conninfo_t for application
 * protocol providers. Without kernel BTF (struct in6_addr) this library is
 * skipped.
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
