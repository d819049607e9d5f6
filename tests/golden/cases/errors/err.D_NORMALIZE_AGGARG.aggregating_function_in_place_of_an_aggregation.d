/* SPDX-License-Identifier: MIT */
/* denormalize() takes an aggregation, not an aggregating function's call. */
BEGIN
{
	denormalize(sum(1));
}
