/* SPDX-License-Identifier: MIT */
/*
 * An int result that overflowed becomes a value of its type before it is
 * widened: stored in a long long, or combined with one, it is the negative
 * int sign-extended, and a comparison sees the int's sign.
 */
#pragma D option quiet

int x, y;
long long z;

BEGIN
{
	x = 1 << 30;
	z = x + x;
	printf("%x\n", z);
	z = 1;
	z <<= 32;
	printf("%x\n", (x + x) & z);
	y = 1;
	printf("%s\n", (1 ^ (y << 31)) > 0 ? "positive" : "negative");
	printf("%x\n", (long long)(x << 5));
	exit(0);
}
