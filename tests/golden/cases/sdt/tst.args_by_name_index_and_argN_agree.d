/*
 * A tracepoint's fields are the same value by name, by index and as
 * argN: args->prev_pid is args[1] and arg1 (sign-extended as pid_t),
 * args->next_prio is args[6] and arg6; the process switched out is the
 * thread running, so prev_pid is tid and prev_comm is execname.
 */
/* @@runtest-opts: -q */
sdt:sched::sched_switch
{
	seen = 1;
	bad += args->prev_pid != args[1] || args[1] != (pid_t)arg1 ||
	    args->next_prio != args[6] || args->next_prio != (int)arg6 ||
	    args->prev_pid != tid || args->prev_comm != execname;
}

tick-200ms
{
	exit(0);
}

END
{
	printf("fired: %d, mismatches: %d\n", seen, bad);
}
