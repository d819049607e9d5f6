/* SPDX-License-Identifier: MIT */
/* Committed data appears where commit() ran, not where it was traced. */
#pragma D option quiet

BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	printf("speculated\n");
}

BEGIN
{
	printf("direct\n");
}

BEGIN
{
	commit(spec);
}

BEGIN
{
	exit(0);
}
