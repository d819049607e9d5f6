/* SPDX-License-Identifier: MIT */
/* Right shift of a negative signed value keeps its sign. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", -16 >> 2, (int)-1 >> 31);
	printf("%x\n", (uint32_t)0x80000000 >> 31);
	exit(0);
}
