/* SPDX-License-Identifier: MIT */
/* aggsortkey with aggsortkeypos=1 sorts by the second key first. */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortkeypos=1

BEGIN
{
	@[1, "b"] = count();
	@[2, "a"] = count();
	@[3, "c"] = count();
	printa("%d %s %@d\n", @);
	exit(0);
}
