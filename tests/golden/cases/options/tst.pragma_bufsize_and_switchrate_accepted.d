/* SPDX-License-Identifier: MIT */
/* bufsize, switchrate and aggrate take size and time suffixes. */
#pragma D option quiet
#pragma D option bufsize=16k
#pragma D option switchrate=10hz
#pragma D option aggrate=1ms
#pragma D option dynvarsize=1m

BEGIN
{
	printf("ok\n");
	exit(0);
}
