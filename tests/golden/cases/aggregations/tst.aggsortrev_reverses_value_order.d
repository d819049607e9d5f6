/* SPDX-License-Identifier: MIT */
/* aggsortrev prints the largest value first. */
#pragma D option quiet
#pragma D option aggsortrev

BEGIN
{
	@["c"] = sum(1);
	@["a"] = sum(3);
	@["b"] = sum(2);
	exit(0);
}
