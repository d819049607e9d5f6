/* SPDX-License-Identifier: MIT */
/* trunc(@, n) keeps the n largest entries. */
#pragma D option quiet

BEGIN
{
	@["a"] = sum(1);
	@["b"] = sum(3);
	@["c"] = sum(2);
	trunc(@, 2);
	printa("%s %@d\n", @);
	exit(0);
}
