/* SPDX-License-Identifier: MIT */
/* Globals keep their value from one probe firing to the next. */
#pragma D option quiet

tick-5ms
{
	n++;
}

tick-5ms
/n == 3/
{
	printf("%d\n", n);
	exit(0);
}
