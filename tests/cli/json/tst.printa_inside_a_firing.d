/* SPDX-License-Identifier: MIT */
/*
 * printa() is an item of its firing's output: the aggregation's data,
 * and with a format the formatted text as "message". An aggregation
 * printa() printed is not printed again at exit.
 */
/* @@runtest-opts: -q */
BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
	@b = sum(10);
}

END
{
	printa(@a);
	printa("%s=%@d\n", @a);
}

BEGIN
{
	exit(0);
}
