/* SPDX-License-Identifier: MIT */
/* Predicates use the logical operators; nonzero is true. */
#pragma D option quiet

BEGIN
{
	a = 3;
	b = 0;
}

BEGIN
/a && !b/
{
	printf("one\n");
}

BEGIN
/b || a == 4/
{
	printf("not reached\n");
}

BEGIN
/a ^^ b/
{
	printf("two\n");
	exit(0);
}
