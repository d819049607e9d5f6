/* SPDX-License-Identifier: MIT */
/* Binary arithmetic operators; division truncates toward zero. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", 7 + 3, 7 - 3, 7 * 3, 7 / 3, 7 % 3);
	printf("%d %d %d %d\n", -7 / 2, -7 % 2, 7 / -2, 7 % -2);
	printf("%d %d\n", -(5), +(5));
	exit(0);
}
