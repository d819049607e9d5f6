/* SPDX-License-Identifier: MIT */
/* The guide's inline definitions using enum values. */
#pragma D option quiet

enum { ZERO, ONE, TWO };

inline int one = ONE;
inline int total = ONE + TWO;

BEGIN
{
	printf("%d %d\n", one, total);
	exit(0);
}
