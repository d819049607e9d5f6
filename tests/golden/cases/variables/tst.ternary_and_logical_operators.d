/* SPDX-License-Identifier: MIT */
#pragma D option quiet

BEGIN
{
	a = 3;
	b = 0;
	printf("%d %d %d %d %s\n", a && b, a || b, !b, a ^^ b, a > b ? "big" : "small");
	exit(0);
}
