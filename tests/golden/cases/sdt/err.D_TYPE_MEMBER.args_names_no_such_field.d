/*
 * args->NAME names one of the tracepoint's fields; any other name is an
 * error that says which probe's arguments were meant.
 */
sdt:sched::sched_switch
{
	trace(args->prev_pidd);
	exit(0);
}
