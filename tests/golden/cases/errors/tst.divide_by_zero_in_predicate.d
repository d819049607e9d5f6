/* SPDX-License-Identifier: MIT */
/* A fault in a predicate is reported "in predicate"; the clause does not run. */
#pragma D option quiet

BEGIN
{
	x = 0;
}

BEGIN
/(10 / x) > 0/
{
	printf("not reached\n");
}

BEGIN
{
	printf("still tracing\n");
	exit(0);
}
