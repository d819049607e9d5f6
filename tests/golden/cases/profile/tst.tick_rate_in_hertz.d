/* SPDX-License-Identifier: MIT */
/* tick-200hz fires every 5ms; any profile unit works (here a rate). */
#pragma D option quiet

tick-200hz
/++n <= 3/
{
	printf("%d\n", n);
}

tick-200hz
/n > 3/
{
	exit(0);
}
