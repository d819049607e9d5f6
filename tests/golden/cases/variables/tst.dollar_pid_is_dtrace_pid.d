/* SPDX-License-Identifier: MIT */
/* $pid is the process ID of dtrace itself. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", $pid == pid);
	exit(0);
}
