/* SPDX-License-Identifier: MIT */
/* clear() zeroes values; keys stay and print with 0. */
#pragma D option quiet

tick-1ms
/i++ < 3/
{
	@["k"] = count();
}

tick-1ms
/i == 4/
{
	printa("%s %@d\n", @);
	clear(@);
	printa("%s %@d\n", @);
	exit(0);
}
