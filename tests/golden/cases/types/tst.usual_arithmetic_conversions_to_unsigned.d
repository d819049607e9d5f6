/* SPDX-License-Identifier: MIT */
/* A signed operand meets an unsigned one of equal rank: both are unsigned. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", -1 < 1u, -1 < 1);
	printf("%u\n", (uint64_t)-1 / 2);
	printf("%d\n", (uint32_t)-1 > 0);
	exit(0);
}
