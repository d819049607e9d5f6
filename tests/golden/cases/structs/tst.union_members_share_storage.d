/* SPDX-License-Identifier: MIT */
/* Union members overlay one another; sizeof is the largest member. */
#pragma D option quiet

union u {
	uint32_t word;
	uint8_t bytes[4];
	uint16_t half;
};

union u v;

BEGIN
{
	v.word = 0x11223344;
	printf("%d %x %x %x\n", sizeof (union u), v.bytes[0], v.bytes[3], v.half);
	exit(0);
}
