/* SPDX-License-Identifier: MIT */
/* printa() with %@d prints each function's value; keys in value order. */
#pragma D option quiet

BEGIN
{
	@mx[1] = max(5);
	@mx[1] = max(9);
	@mx[2] = max(3);
	@mn[1] = min(5);
	@mn[1] = min(-9);
	@av[1] = avg(1);
	@av[1] = avg(2);
	printa("max %d %@d\n", @mx);
	printa("min %d %@d\n", @mn);
	printa("avg %d %@d\n", @av);
	exit(0);
}
