/* SPDX-License-Identifier: MIT */
/* quantize()'s second argument is the increment. */
#pragma D option quiet

BEGIN
{
	@ = quantize(4, 3);
	@ = quantize(9);
	exit(0);
}
