/* SPDX-License-Identifier: MIT */
/* ERROR's arg4 is DTRACEFLT_DIVZERO (4), arg5 is 0. */
#pragma D option quiet

BEGIN
{
	x = 0;
	y = 1 / x;
}

ERROR
{
	printf("fault %d value %d\n", arg4, arg5);
}

BEGIN
{
	exit(0);
}
