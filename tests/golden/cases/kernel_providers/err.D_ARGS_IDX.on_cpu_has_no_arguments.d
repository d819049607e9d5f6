/* SPDX-License-Identifier: MIT */

/* sched:::on-cpu has no arguments: the thread is curthread. */
sched:::on-cpu
{
	trace(args[0]->pr_lwpid);
}
