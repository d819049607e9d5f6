/* SPDX-License-Identifier: MIT */
/*
 * A balanced tree seven levels deep keeps eight values live whichever
 * operand is evaluated first: more than DIF's seven registers.
 */
BEGIN
{
	a = 1;
	x = (((((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))) + ((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a))))) + (((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))) + ((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))))) + ((((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))) + ((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a))))) + (((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))) + ((((a + a) + (a + a)) + ((a + a) + (a + a))) + (((a + a) + (a + a)) + ((a + a) + (a + a)))))));
	exit(0);
}
