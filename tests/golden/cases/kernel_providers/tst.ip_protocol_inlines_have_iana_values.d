/* SPDX-License-Identifier: MIT */

/* ip.d's IPPROTO_* inlines are the IANA protocol numbers, as illumos' are. */
/* @@runtest-opts: -q */
BEGIN
{
	printf("ICMP %d TCP %d UDP %d IPV6 %d\n", IPPROTO_ICMP, IPPROTO_TCP, IPPROTO_UDP,
	    IPPROTO_IPV6);
	printf("ICMPV6 %d SCTP %d RAW %d\n", IPPROTO_ICMPV6, IPPROTO_SCTP, IPPROTO_RAW);
	exit(0);
}
