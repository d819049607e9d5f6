/*
 * The pid provider names a process by a positive number: pid0 is no
 * process (illumos dt_pid.c).
 */
pid0:::entry
{
}
