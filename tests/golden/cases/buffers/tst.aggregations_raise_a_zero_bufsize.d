/* SPDX-License-Identifier: MIT */
/*
 * A program with aggregations needs a principal buffer as the aggregation
 * buffer's scratch, so a bufsize below its largest record is raised to
 * that record's size (illumos dtrace_state_go()): bufsize=0 still runs.
 */
#pragma D option quiet
#pragma D option bufsize=0

BEGIN
{
	@calls = count();
	printf("recorded with bufsize=0\n");
	exit(0);
}
