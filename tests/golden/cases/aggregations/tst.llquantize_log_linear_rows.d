/* SPDX-License-Identifier: MIT */
/*
 * llquantize(x, 10, 0, 2, 10): ten linear steps per power of ten from 1
 * to 1000; rows from one below the first value to the last bucket.
 */
#pragma D option quiet

BEGIN
{
	@ = llquantize(5, 10, 0, 2, 10);
	@ = llquantize(50, 10, 0, 2, 10);
	@ = llquantize(5000, 10, 0, 2, 10);
	exit(0);
}
