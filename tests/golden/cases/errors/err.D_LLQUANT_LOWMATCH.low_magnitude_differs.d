/* SPDX-License-Identifier: MIT */
/* Every use of an llquantize() aggregation gives the same low magnitude. */
BEGIN
{
	@q = llquantize(1, 10, 0, 6, 20);
	@q = llquantize(1, 10, 1, 6, 20);
}
