/* SPDX-License-Identifier: MIT */
/* trunc()'s count is a scalar: an aggregation is not one. */
BEGIN
{
	@totals = count();
	trunc(@totals, @totals);
}
