/* SPDX-License-Identifier: MIT */
/*
 * Nested deeper than DIF has registers: the deeper operand is evaluated
 * first, so a chain like this needs only a few.
 */
#pragma D option quiet
BEGIN
{
	a = 1;
	b = 2;
	x = a + (b * (a + (b * (a + (b * (a + (b * (a + (b * (a + b))))))))));
	printf("%d\n", x);
	printf("%s\n", strjoin("a", strjoin("b", strjoin("c", strjoin("d",
	    strjoin("e", strjoin("f", strjoin("g", strjoin("h", "i")))))))));
	exit(0);
}
