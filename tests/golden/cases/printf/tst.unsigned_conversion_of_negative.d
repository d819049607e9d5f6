/* SPDX-License-Identifier: MIT */
/* %u of -1 prints the unsigned 64-bit value. */
#pragma D option quiet

BEGIN
{
	printf("%u %d\n", -1, -1);
	exit(0);
}
