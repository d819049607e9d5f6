/* SPDX-License-Identifier: MIT */
/* lquantize() over a negative range labels rows with negative values. */
#pragma D option quiet

BEGIN
{
	@ = lquantize(-5, -10, 10, 5);
	@ = lquantize(-10, -10, 10, 5);
	@ = lquantize(3, -10, 10, 5);
	exit(0);
}
