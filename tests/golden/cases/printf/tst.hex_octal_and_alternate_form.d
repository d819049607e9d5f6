/* SPDX-License-Identifier: MIT */
/* %x %X %o with # add 0x, 0X and 0. */
#pragma D option quiet

BEGIN
{
	printf("%x %X %o %#x %#X %#o\n", 255, 255, 8, 255, 255, 8);
	exit(0);
}
