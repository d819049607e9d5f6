/* SPDX-License-Identifier: MIT */
/*
 * A fault discards the firing and fires dtrace:::ERROR with arg1..arg5 =
 * EPID, action index, DIF offset, fault code (DTRACEFLT_BADADDR is 1) and
 * the bad value. The program's ERROR clause runs before libdtrace's own
 * ERROR enabling, which prints the message; tracing goes on.
 */
#pragma D option quiet

BEGIN
{
	trace(*(int *)0);
}

ERROR
{
	printf("ERROR: epid %d action %d offset %d fault %d value %d\n", arg1, arg2, arg3,
	    arg4, arg5);
}

BEGIN
{
	exit(0);
}
