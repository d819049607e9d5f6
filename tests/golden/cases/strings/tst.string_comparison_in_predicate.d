/* SPDX-License-Identifier: MIT */
/* A string comparison selects clauses in a predicate. */
#pragma D option quiet

BEGIN
{
	s = "alpha";
}

BEGIN
/s == "alpha"/
{
	printf("matched\n");
}

BEGIN
/s != "alpha"/
{
	printf("not reached\n");
}

BEGIN
/s < "beta"/
{
	printf("ordered\n");
	exit(0);
}
