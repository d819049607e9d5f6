/* SPDX-License-Identifier: MIT */
/* Operator precedence and associativity follow ANSI-C. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", 2 + 3 * 4, (2 + 3) * 4, 1 << 2 + 1, 1 | 2 & 0);
	printf("%d %d %d %d\n", 1 + 2 == 3, !0 + 1, 10 - 4 - 3, 2 * 3 % 4);
	printf("%d %d %d\n", 100 / 10 / 5, -2 * -3, 1 < 2 == 1);
	printf("%d %d\n", 1 || 0 && 0, 3 & 6 ^ 1 | 8);
	exit(0);
}
