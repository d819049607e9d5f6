/* SPDX-License-Identifier: MIT */
/* Every use of an lquantize() aggregation gives the same step (here the limit is the same too). */
BEGIN
{
	@q = lquantize(1, 0, 100, 10);
	@q = lquantize(1, 0, 100, 20);
}
