/* SPDX-License-Identifier: MIT */
/* timestamp and walltimestamp are nonzero and do not go backward. */
#pragma D option quiet

BEGIN
{
	start = timestamp;
	wall = walltimestamp;
}

tick-10ms
{
	printf("%d %d %d\n", timestamp > start, wall > 0, walltimestamp >= wall);
	exit(0);
}
