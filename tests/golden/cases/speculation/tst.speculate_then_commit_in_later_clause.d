/* SPDX-License-Identifier: MIT */
/* Data speculated in one clause appears only when a later clause commits it. */
#pragma D option quiet

BEGIN
{
	s = speculation();
	printf("direct\n");
}

BEGIN
{
	speculate(s);
	printf("speculated\n");
}

BEGIN
{
	printf("before commit\n");
}

BEGIN
{
	commit(s);
}

BEGIN
{
	printf("after commit\n");
	exit(0);
}
