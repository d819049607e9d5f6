/* SPDX-License-Identifier: MIT */
/* aggzoom scales bars so the largest bucket fills the width. */
#pragma D option quiet
#pragma D option aggzoom

BEGIN
{
	@ = quantize(1);
	@ = quantize(1);
	@ = quantize(4);
	exit(0);
}
