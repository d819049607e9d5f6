/* SPDX-License-Identifier: MIT */
/* aggsortpos=1 sorts a multi-aggregation printa by the second one. */
#pragma D option quiet
#pragma D option aggsortpos=1

BEGIN
{
	@a["x"] = sum(1);
	@b["x"] = sum(30);
	@a["y"] = sum(2);
	@b["y"] = sum(10);
	@a["z"] = sum(3);
	@b["z"] = sum(20);
	printa("%s %@d %@d\n", @a, @b);
	exit(0);
}
