/* SPDX-License-Identifier: MIT */
/* quantize(0) shows the 0 row between -1 and 1. */
#pragma D option quiet

BEGIN
{
	@ = quantize(0);
	exit(0);
}
