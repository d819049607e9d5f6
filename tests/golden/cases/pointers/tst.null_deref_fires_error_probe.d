/* SPDX-License-Identifier: MIT */
/* The guide's error.d: the ERROR probe fires before dtrace reports the fault. */
#pragma D option quiet

BEGIN
{
	*(char *)NULL;
}

ERROR
{
	printf("Hit an error! arg4=%d arg5=%d\n", arg4, arg5);
	exit(0);
}
