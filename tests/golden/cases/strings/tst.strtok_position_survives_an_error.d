/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -q */
/*
 * dtrace:::ERROR is a probe firing of its own: its clauses start with no
 * strtok() position (strtok(NULL, ...) there faults, counted as an error
 * in an ERROR enabling), and the firing that faulted continues with its
 * own position in its later clauses.
 */
BEGIN
{
	printf("first: %s\n", strtok("north,south,east", ","));
}

BEGIN
{
	*(char *)NULL;
}

BEGIN
{
	printf("third: %s\n", strtok(NULL, ","));
	printf("then: %s\n", strtok(NULL, ","));
	exit(0);
}

ERROR
{
	printf("ERROR fired for action #%d\n", arg2);
}

ERROR
{
	trace(strtok(NULL, ","));
}
