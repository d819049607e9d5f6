/* SPDX-License-Identifier: MIT */
/*
 * With nspec 1, a second speculation() while the first is active returns 0
 * and counts a failed speculation; speculate(0) drops that firing.
 */
#pragma D option quiet
#pragma D option nspec=1

BEGIN
{
	a = speculation();
	b = speculation();
	printf("%d %d\n", a, b);
}

BEGIN
{
	speculate(b);
	printf("never\n");
}

BEGIN
{
	discard(a);
	exit(0);
}
