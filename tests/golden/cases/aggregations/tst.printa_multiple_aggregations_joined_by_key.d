/* SPDX-License-Identifier: MIT */
/*
 * One printa() of several aggregations prints one line per key, with each
 * aggregation's value for it (0 where it has none); sorted by the first.
 */
#pragma D option quiet

BEGIN
{
	@c["a"] = count();
	@c["b"] = count();
	@c["b"] = count();
	@s["a"] = sum(10);
	@s["c"] = sum(30);
	printa("%-4s %@4d %@4d\n", @c, @s);
	exit(0);
}
