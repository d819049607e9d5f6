/* SPDX-License-Identifier: MIT */
/*
 * lquantize()'s uses must agree on base, step and number of levels: a
 * limit of 105 with step 10 gives the same ten levels as 100, so both
 * statements feed one aggregation.
 */
#pragma D option quiet

BEGIN
{
	@q = lquantize(15, 0, 100, 10);
	@q = lquantize(25, 0, 105, 10);
	exit(0);
}
