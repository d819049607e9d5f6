/* SPDX-License-Identifier: MIT */
/* %@d prints avg() and stddev() as their integer results. */
#pragma D option quiet

BEGIN
{
	@a["k"] = avg(1);
	@a["k"] = avg(4);
	@s["k"] = stddev(2);
	@s["k"] = stddev(6);
	printa("avg %@d\n", @a);
	printa("stddev %@d\n", @s);
	exit(0);
}
