/* SPDX-License-Identifier: MIT */
/* Casts to narrower types truncate; signed narrow types sign-extend. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", (char)300, (char)200, (unsigned char)-1,
	    (uint8_t)256);
	printf("%d %d %d\n", (short)70000, (unsigned short)-1, (int)0x100000001);
	printf("%d\n", (int64_t)(int32_t)0xffffffff);
	exit(0);
}
