/* SPDX-License-Identifier: MIT */
/*
 * With bufsize 64 (switch policy), a firing that does not fit is dropped
 * whole -- before its predicate runs, as illumos reserves first -- and
 * counted: "dtrace: N drops on CPU C" (dt_handle_cpudrop()). Each BEGIN
 * firing here takes 16 bytes (header + one int); the fifth is dropped.
 * The buffer is consumed (switched) before tick-10ms fires.
 */
/* @@runtest-opts: -x bufsize=64 */
#pragma D option quiet

BEGIN
{
	printf("%d\n", 1);
}

BEGIN
{
	printf("%d\n", 2);
}

BEGIN
{
	printf("%d\n", 3);
}

BEGIN
{
	printf("%d\n", 4);
}

BEGIN
{
	printf("%d\n", 5);
}

tick-10ms
{
	exit(0);
}
