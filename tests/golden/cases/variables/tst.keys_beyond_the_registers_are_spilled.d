/* SPDX-License-Identifier: MIT */

/*
 * Eight computed keys, each taking two registers to compute, are more than
 * DIF's seven registers hold at once: the values wait in spill slots, and
 * the element written is the one read back by constant keys.
 */
#pragma D option quiet

BEGIN
{
	x = 10;
	a[x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8] = 5;
	printf("%d\n", a[11, 12, 13, 14, 15, 16, 17, 18]);
	printf("%d\n", a[x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8] * 2);
	exit(0);
}
