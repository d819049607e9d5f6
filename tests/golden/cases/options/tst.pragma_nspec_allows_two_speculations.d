/* SPDX-License-Identifier: MIT */
/* nspec=2 lets two speculations be active at once. */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
	printf("%d %d\n", a != 0, b != 0);
	discard(a);
	discard(b);
	exit(0);
}
