/* SPDX-License-Identifier: MIT */
/* Every use of an llquantize() aggregation gives the same factor. */
BEGIN
{
	@q = llquantize(1, 10, 0, 6, 20);
	@q = llquantize(1, 20, 0, 6, 20);
}
