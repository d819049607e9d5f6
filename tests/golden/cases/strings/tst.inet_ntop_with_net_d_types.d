/* SPDX-License-Identifier: MIT */
/*
 * The D library's net.d gives scripts ipaddr_t, in6_addr_t and the
 * address families inet_ntop() takes (Dynamic Tracing Guide, inet_ntop()).
 */
#pragma D option quiet

ipaddr_t *ip4;
in6_addr_t *ip6;

BEGIN
{
	this->b4 = alloca(sizeof (ipaddr_t));
	this->b6 = alloca(sizeof (in6_addr_t));
	ip4 = this->b4;
	ip6 = this->b6;
	*ip4 = htonl(0xc0a80117);
	ip6->in6_u.u6_addr8[0] = 0xfe;
	ip6->in6_u.u6_addr8[1] = 0x80;
	ip6->in6_u.u6_addr8[15] = 0x01;
	printf("%s\n", inet_ntop(AF_INET, ip4));
	printf("%s\n", inet_ntop(AF_INET6, ip6));
	printf("%d %d\n", AF_INET, AF_INET6);
	exit(0);
}
