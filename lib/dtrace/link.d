/*
 * SPDX-License-Identifier: MIT
 *
 * link.d - the link-layer address types link_ntop() formats, with Linux's
 * values (include/uapi/linux/if_arp.h).
 */

inline int ARPHRD_ETHER = 1;		/* Ethernet: 6 bytes */
inline int ARPHRD_INFINIBAND = 32;	/* InfiniBand: 20 bytes */
