/* SPDX-License-Identifier: MIT */
/* Built-in variables naming the BEGIN probe. */
#pragma D option quiet

BEGIN
{
	printf("%d %d [%s] [%s] [%s] [%s]\n", id, epid, probeprov, probemod,
	    probefunc, probename);
	exit(0);
}
