/* SPDX-License-Identifier: MIT */
/* sum() of negative values prints a signed total. */
#pragma D option quiet

BEGIN
{
	@ = sum(3);
	@ = sum(-10);
	exit(0);
}
