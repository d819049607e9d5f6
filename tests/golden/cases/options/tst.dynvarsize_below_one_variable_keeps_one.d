/* SPDX-License-Identifier: MIT */
/*
 * A dynvarsize too small for even one dynamic variable is raised to room
 * for exactly one (one chunk and its hash bucket, as illumos'
 * dtrace_dstate_init() does): the first store is kept, the second is a
 * dynamic variable drop, and a load of the dropped element reads 0.
 */
#pragma D option quiet
#pragma D option dynvarsize=1

BEGIN
{
	a[1] = 10;
	a[2] = 20;
	printf("a[1] = %d, a[2] = %d\n", a[1], a[2]);
	exit(0);
}
