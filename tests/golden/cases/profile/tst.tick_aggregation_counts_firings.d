/* SPDX-License-Identifier: MIT */
/* Each tick-N firing updates the aggregation once; printed at exit. */
#pragma D option quiet

tick-5ms
/n++ == 4/
{
	exit(0);
}

tick-5ms
{
	@ = count();
}
