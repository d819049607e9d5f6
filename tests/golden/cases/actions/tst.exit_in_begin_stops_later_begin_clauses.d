/* SPDX-License-Identifier: MIT */
/*
 * exit() moves the state to draining: later BEGIN clauses do not run (illumos
 * dtrace_probe(): "if one BEGIN enabling has invoked the exit() action, we
 * don't want to evaluate subsequent BEGIN enablings"); END still runs.
 */
#pragma D option quiet

BEGIN
{
	printf("first\n");
	exit(3);
}

BEGIN
{
	printf("second\n");
}

END
{
	printf("end\n");
}
/* @@status: 3 */
