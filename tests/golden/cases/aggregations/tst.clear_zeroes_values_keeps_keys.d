/* SPDX-License-Identifier: MIT */
/* clear(@) zeroes every value; the keys stay. */
#pragma D option quiet

BEGIN
{
	@["a"] = count();
	clear(@);
	printa("%s %@d\n", @);
	exit(0);
}
