/* SPDX-License-Identifier: MIT */
/* Reading an unmapped address faults with its address in the message. */
#pragma D option quiet

BEGIN
{
	trace(*(int *)8);
}

BEGIN
{
	exit(0);
}
