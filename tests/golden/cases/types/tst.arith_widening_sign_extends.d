/* SPDX-License-Identifier: MIT */
/*
 * An int result that overflowed keeps its 64 bits in the register: stored
 * in a 64-bit variable it stays as computed, stored in an int it is cut to
 * 32 bits. A cast makes it an int first: (long long)(x + x) is the negative
 * int sign-extended.
 */
#pragma D option quiet

int x, i, s;
int64_t v;

BEGIN
{
	x = 1 << 30;
	s = 31;
	v = 1 << s;
	i = 1 << s;
	printf("%d %d\n", v, i);
	printf("%x\n", (long long)(x + x));
	printf("%x\n", (long long)(x << 5));
	exit(0);
}
