/* SPDX-License-Identifier: MIT */
/* min() and max() compare signed values. */
#pragma D option quiet

BEGIN
{
	@mn = min(-3);
	@mn = min(5);
	@mx = max(-3);
	@mx = max(-7);
	printa("min %@d\n", @mn);
	printa("max %@d\n", @mx);
	exit(0);
}
