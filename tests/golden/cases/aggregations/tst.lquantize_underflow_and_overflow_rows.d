/* SPDX-License-Identifier: MIT */
/* lquantize(x, 0, 10, 5): rows "< 0", 0, 5, ">= 10". */
#pragma D option quiet

BEGIN
{
	@ = lquantize(-5, 0, 10, 5);
	@ = lquantize(3, 0, 10, 5);
	@ = lquantize(12, 0, 10, 5);
	exit(0);
}
