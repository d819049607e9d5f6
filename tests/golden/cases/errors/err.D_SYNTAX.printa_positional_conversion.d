/* SPDX-License-Identifier: MIT */
/* printa() formats are parsed as printf()'s: %n$ is not supported. */
BEGIN
{
	@a[1] = count();
	printa("%2$d %@d\n", @a);
}
