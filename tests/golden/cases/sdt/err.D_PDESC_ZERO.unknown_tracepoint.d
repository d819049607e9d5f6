/*
 * A tracepoint the kernel does not have matches no sdt probe.
 */
sdt:sched::sched_no_such_event
{
	exit(0);
}
