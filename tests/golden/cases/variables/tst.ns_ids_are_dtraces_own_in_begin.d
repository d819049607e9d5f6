/* SPDX-License-Identifier: MIT */
/*
 * nspid, nstid and nsppid number the current thread in its own pid
 * namespace (docs/containers.md): in BEGIN the thread is dtrace's, so they
 * are what getpid() and getppid() return to dtrace, which $pid and $ppid
 * hold, in whatever namespace it runs; cgroup is its cgroup v2 id, a
 * number of 64 bits.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", nspid == $pid, nsppid == $ppid, nstid > 0,
	    sizeof (cgroup));
	exit(0);
}
