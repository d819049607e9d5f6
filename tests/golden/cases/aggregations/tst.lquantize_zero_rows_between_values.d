/* SPDX-License-Identifier: MIT */
/* lquantize() shows one empty row on each side of the used range. */
#pragma D option quiet

BEGIN
{
	@ = lquantize(3, 0, 10, 1);
	@ = lquantize(6, 0, 10, 1);
	@ = lquantize(6, 0, 10, 1);
	exit(0);
}
