/* SPDX-License-Identifier: MIT */
/* A fault discards everything the clause had already recorded. */
#pragma D option quiet

BEGIN
{
	printf("not printed\n");
	x = 0;
	trace(1 / x);
}

BEGIN
{
	printf("printed\n");
	exit(0);
}
