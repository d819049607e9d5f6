/* SPDX-License-Identifier: MIT */
/* Prefix operators yield the new value, postfix the old one. */
#pragma D option quiet

BEGIN
{
	x = 5;
	a = x++;
	b = x;
	c = ++x;
	d = x--;
	e = --x;
	printf("%d %d %d %d %d %d\n", a, b, c, d, e, x);
	exit(0);
}
