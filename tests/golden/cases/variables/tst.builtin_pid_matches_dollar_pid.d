/* SPDX-License-Identifier: MIT */
/* pid in BEGIN is the dtrace process itself, which $pid also names. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", pid == $pid, pid > 0, execname == "dtrace");
	exit(0);
}
