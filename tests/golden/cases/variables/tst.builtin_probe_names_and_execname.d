/* SPDX-License-Identifier: MIT */
/* probeprov, probename and execname in BEGIN (run by dtrace itself). */
#pragma D option quiet

BEGIN
{
	printf("%s:%s:%s:%s %s\n", probeprov, probemod, probefunc, probename, execname);
	exit(0);
}
