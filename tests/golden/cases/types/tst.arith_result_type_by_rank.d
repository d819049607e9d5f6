/* SPDX-License-Identifier: MIT */
/*
 * D takes the type of a binary operator's result from its operands, the
 * one of greater rank (width, then unsigned over signed); it does not
 * first promote char and short to int as C does. The operator computes in
 * 64 bits: what overflows the result's type is cut off where the value is
 * stored or traced, not in between.
 */
#pragma D option quiet

char c;
short s;
unsigned char uc;
int i;

BEGIN
{
	c = 100;
	s = 30000;
	uc = 200;
	printf("%d %d %d\n", c * 2, s * 2, sizeof (c + c));
	printf("%d %d\n", sizeof (uc + c), uc + c);
	i = 0x40000000;
	/* 2^30 * 8 / 4 in 64 bits is 2^31: one past INT_MAX once cut to int */
	i = i * 8 / 4;
	printf("%d\n", i);
	exit(0);
}
