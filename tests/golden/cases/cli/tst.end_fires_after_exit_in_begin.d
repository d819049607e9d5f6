/* SPDX-License-Identifier: MIT */
/* exit() stops tracing, but END still fires (after BEGIN's output). */
/* @@runtest-opts: -q */
BEGIN
{
	printf("begin\n");
	exit(0);
}

END
{
	printf("end\n");
}
