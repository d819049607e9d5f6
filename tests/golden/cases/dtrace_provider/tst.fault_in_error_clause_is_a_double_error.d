/* SPDX-License-Identifier: MIT */
/* A fault inside the ERROR clause is counted, not re-reported. */
#pragma D option quiet

BEGIN
{
	trace(*(int *)0);
}

ERROR
{
	trace(*(int *)0);
}

BEGIN
{
	exit(0);
}
