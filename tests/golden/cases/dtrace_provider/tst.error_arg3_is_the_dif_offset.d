/* SPDX-License-Identifier: MIT */
/* ERROR's arg2 is the action index, arg3 the DIF offset of the fault. */
#pragma D option quiet

BEGIN
{
	trace(*(int *)0);
}

ERROR
{
	printf("action %d offset %d\n", arg2, arg3);
}

BEGIN
{
	exit(0);
}
