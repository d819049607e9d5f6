/* SPDX-License-Identifier: MIT */
/* normalize(@, n) divides what printa() shows by n. */
#pragma D option quiet

BEGIN
{
	@ = sum(100);
	normalize(@, 10);
	printa("%@d\n", @);
	exit(0);
}
