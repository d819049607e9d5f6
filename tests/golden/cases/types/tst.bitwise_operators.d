/* SPDX-License-Identifier: MIT */
/* Bitwise and, or, xor, complement and shifts. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", 0xf0 & 0x3c, 0xf0 | 0x0f, 0xf0 ^ 0xff, ~0);
	printf("%d %d %x\n", 1 << 4, 256 >> 2, ~0x0fu);
	exit(0);
}
