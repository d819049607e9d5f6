/*
 * The sdt provider lists a tracepoint under its group as module, with
 * the fields of its format file as typed arguments (strings for the
 * character arrays).
 */
/* @@runtest-opts: -lv */
sdt:sched::sched_switch,
sdt:::sched_process_exec
{
}
