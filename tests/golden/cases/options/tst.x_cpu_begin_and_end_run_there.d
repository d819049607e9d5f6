/* SPDX-License-Identifier: MIT */
/* With -x cpu=0, BEGIN, tick-n and END all fire on CPU 0. */
/* @@runtest-opts: -x cpu=0 */
#pragma D option quiet

BEGIN
{
	printf("BEGIN on %d\n", cpu);
}

tick-1ms
{
	printf("tick on %d\n", cpu);
	exit(0);
}

END
{
	printf("END on %d\n", cpu);
}
