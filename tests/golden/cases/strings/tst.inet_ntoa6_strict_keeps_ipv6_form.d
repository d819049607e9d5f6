/* SPDX-License-Identifier: MIT */
/*
 * inet_ntoa6()'s optional second argument: non-zero prints IPv4-mapped and
 * IPv4-compatible addresses in their IPv6 form, as inet_ntop() does.
 */
#pragma D option quiet

BEGIN
{
	a = (uint8_t *)alloca(16);
	a[10] = 0xff;
	a[11] = 0xff;
	a[12] = 10;
	a[13] = 1;
	a[14] = 2;
	a[15] = 3;
	printf("%s\n", inet_ntoa6((in6_addr_t *)a));
	printf("%s\n", inet_ntoa6((in6_addr_t *)a, 0));
	printf("%s\n", inet_ntoa6((in6_addr_t *)a, 1));
	a[10] = 0;
	a[11] = 0;
	printf("%s\n", inet_ntoa6((in6_addr_t *)a));
	printf("%s\n", inet_ntoa6((in6_addr_t *)a, 1));
	exit(0);
}
