/* SPDX-License-Identifier: MIT */
/* Unsigned arithmetic wraps modulo 2^n. */
#pragma D option quiet

BEGIN
{
	u = (uint32_t)0;
	u = u - 1;
	printf("%u\n", u);
	x = (uint64_t)0xffffffffffffffff;
	printf("%u\n", x + 2);
	exit(0);
}
