/* SPDX-License-Identifier: MIT */
/*
 * A run-time fault is an "error" record in the stream (not a message on
 * stderr): the fault's name, the address at fault, the probe, the action.
 * The ERROR probe's own firing is a probe record, its clause's output in
 * it.
 */
/* @@runtest-opts: -q */
BEGIN
{
	trace(*(int *)8);
}

ERROR
{
	printf("fault %d at 0x%x", arg4, arg5);
}

BEGIN
{
	x = 0;
	trace(1 / x);
}

BEGIN
{
	exit(0);
}
