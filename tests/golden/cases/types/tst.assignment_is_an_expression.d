/* SPDX-License-Identifier: MIT */
/* An assignment yields the value stored and associates to the right. */
#pragma D option quiet

BEGIN
{
	a = b = c = 3;
	d = (e = 4) + 1;
	printf("%d %d %d %d %d\n", a, b, c, d, e);
	exit(0);
}
