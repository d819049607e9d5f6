/* SPDX-License-Identifier: MIT */
/* Built-in variables naming a tick probe. */
#pragma D option quiet

tick-10ms
{
	printf("[%s] [%s] [%s] [%s]\n", probeprov, probemod, probefunc,
	    probename);
	exit(0);
}
