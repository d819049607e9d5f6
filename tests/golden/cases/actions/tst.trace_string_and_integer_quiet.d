/* SPDX-License-Identifier: MIT */
/* trace() under quiet prints values with no padding or separators. */
#pragma D option quiet

BEGIN
{
	trace("a");
	trace(1);
	trace("\n");
	exit(0);
}
