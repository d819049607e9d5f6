/* SPDX-License-Identifier: MIT */
/* char and short operands are promoted to int before arithmetic. */
#pragma D option quiet

char c;
short s;

BEGIN
{
	c = 100;
	s = 30000;
	printf("%d %d %d\n", c * 2, s * 2, sizeof (c + c));
	exit(0);
}
