/* SPDX-License-Identifier: MIT */
/* Every use of an lquantize() aggregation gives the same limit. */
BEGIN
{
	@q = lquantize(1, 0, 100, 10);
	@q = lquantize(1, 0, 200, 10);
}
