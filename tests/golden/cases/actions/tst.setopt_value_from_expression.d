/* SPDX-License-Identifier: MIT */
/*
 * setopt()'s arguments are strings computed when the probe fires: here the
 * aggregation printa() sorts by is chosen with lltostr().
 */
#pragma D option quiet

BEGIN
{
	@first["a"] = sum(3);
	@first["b"] = sum(1);
	@first["c"] = sum(2);
	@second["a"] = sum(10);
	@second["b"] = sum(30);
	@second["c"] = sum(20);
	pos = 1;
	setopt("aggsortpos", lltostr(pos));
	printa("%s %@d %@d\n", @first, @second);
	exit(0);
}
