/* SPDX-License-Identifier: MIT */
/* uid, gid, ppid and pid in BEGIN match the $uid, $gid, $ppid and $pid macros. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", uid == $uid, gid == $gid, ppid == $ppid,
	    pid == $pid, errno);
	exit(0);
}
