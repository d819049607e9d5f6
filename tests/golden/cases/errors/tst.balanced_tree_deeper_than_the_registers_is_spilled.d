/* SPDX-License-Identifier: MIT */
/*
 * A balanced tree seven levels deep keeps eight values live whichever
 * operand is evaluated first: more than DIF's seven registers, so one
 * operand's value waits in a spill slot while the other is computed.
 */
#pragma D option quiet

BEGIN
{
	a = 1;
	x = (((((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))) + ((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a))))) + (((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))) + ((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))))) + ((((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))) + ((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a))))) + (((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))) + ((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))))));
	printf("%d\n", x);
	exit(0);
}
