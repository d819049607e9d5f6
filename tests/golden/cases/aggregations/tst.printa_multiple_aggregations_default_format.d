/* SPDX-License-Identifier: MIT */
/* printa(@a, @b) without a format prints both values after the key. */
#pragma D option quiet

BEGIN
{
	@c["a"] = count();
	@s["a"] = sum(7);
	@c["b"] = count();
	@s["b"] = sum(3);
	printa(@c, @s);
	exit(0);
}
