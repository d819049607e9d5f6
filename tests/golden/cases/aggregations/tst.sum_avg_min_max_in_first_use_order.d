/* SPDX-License-Identifier: MIT */
/*
 * Each aggregation prints in turn, in the order of first use; avg()
 * truncates like integer division.
 */
#pragma D option quiet

BEGIN
{
	@s = sum(3);
	@s = sum(4);
	@a = avg(2);
	@a = avg(5);
	@mn = min(7);
	@mn = min(-1);
	@mx = max(7);
	@mx = max(-1);
	exit(0);
}
