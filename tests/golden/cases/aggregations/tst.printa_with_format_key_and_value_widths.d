/* SPDX-License-Identifier: MIT */
/* printa() formats: widths and flags apply to keys and %@ values. */
#pragma D option quiet

BEGIN
{
	@[1, "x"] = sum(42);
	printa("[%5d][%-3s][%-6@d][%06@d]\n", @);
	exit(0);
}
