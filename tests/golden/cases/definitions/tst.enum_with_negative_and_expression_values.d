/* SPDX-License-Identifier: MIT */
/* Enumerator values may be negative or constant expressions. */
#pragma D option quiet

enum e {
	NEG = -2,
	NEXT,
	SHIFTED = 1 << 4,
	AFTER
};

BEGIN
{
	printf("%d %d %d %d\n", NEG, NEXT, SHIFTED, AFTER);
	exit(0);
}
