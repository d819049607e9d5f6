/* SPDX-License-Identifier: MIT */
/* aggsortkey with aggsortrev sorts by key, largest first. */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortrev

BEGIN
{
	@["c"] = sum(1);
	@["a"] = sum(3);
	@["b"] = sum(2);
	exit(0);
}
