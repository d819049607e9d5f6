/* SPDX-License-Identifier: MIT */
/* stddev() in integer arithmetic (illumos dt_stddev()): 2, 4, 4, 4, 5, 5, 7, 9 -> 2. */
#pragma D option quiet

BEGIN
{
	@ = stddev(2);
	@ = stddev(4);
	@ = stddev(4);
	@ = stddev(4);
	@ = stddev(5);
	@ = stddev(5);
	@ = stddev(7);
	@ = stddev(9);
	exit(0);
}
