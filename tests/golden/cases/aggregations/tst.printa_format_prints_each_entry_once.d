/* SPDX-License-Identifier: MIT */
/* printa() with a format prints each entry; it is not printed again at exit. */
#pragma D option quiet

BEGIN
{
	@c["a"] = count();
	@c["b"] = count();
	@c["b"] = count();
	printa("%s=%@d\n", @c);
	exit(0);
}
