/* SPDX-License-Identifier: MIT */
/* Two speculations: one committed, one discarded. */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
}

BEGIN
{
	speculate(a);
	printf("from a\n");
}

BEGIN
{
	speculate(b);
	printf("from b\n");
}

BEGIN
{
	discard(a);
}

BEGIN
{
	commit(b);
}

BEGIN
{
	exit(0);
}
