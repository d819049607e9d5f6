/* SPDX-License-Identifier: MIT */

/*
 * Built-in variables are global identifiers: a thread-local of the same
 * name is another variable, and the built-in keeps its meaning.
 */
#pragma D option quiet

self int pid;

BEGIN
{
	self->pid = 7;
	printf("%d %d\n", self->pid, pid != 7);
	exit(0);
}
