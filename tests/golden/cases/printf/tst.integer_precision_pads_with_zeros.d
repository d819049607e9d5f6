/* SPDX-License-Identifier: MIT */
/* A precision on an integer sets its minimum digits. */
#pragma D option quiet

BEGIN
{
	printf("[%.4d][%8.4d][%-8.4x]\n", 7, 7, 0xab);
	exit(0);
}
