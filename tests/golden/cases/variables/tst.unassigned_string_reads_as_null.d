/* SPDX-License-Identifier: MIT */
/*
 * A thread-local or associative array string never assigned reads as NULL:
 * it compares equal to NULL, and recording it (trace, printf) faults on
 * address 0, which fires ERROR with DTRACEFLT_BADADDR, and the clause's
 * later actions do not run. A global string
 * never assigned is the empty string.
 */
#pragma D option quiet

self string name;
string global_name;
string names[int];

BEGIN
{
	printf("self->name == NULL: %d, names[1] == NULL: %d, [%s]\n",
	    self->name == NULL, names[1] == NULL, global_name);
}

BEGIN
{
	printf("%s\n", self->name);
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("ERROR: fault %d at address %d\n", arg4, arg5);
}
