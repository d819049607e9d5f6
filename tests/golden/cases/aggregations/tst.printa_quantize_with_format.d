/* SPDX-License-Identifier: MIT */
/* printa() with %@d on a quantize prints the histogram in place. */
#pragma D option quiet

BEGIN
{
	@["k"] = quantize(2);
	printa("key %s:%@d\n", @);
	exit(0);
}
