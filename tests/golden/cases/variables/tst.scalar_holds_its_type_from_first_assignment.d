/* SPDX-License-Identifier: MIT */
/* An undeclared scalar takes the type of its first assignment. */
#pragma D option quiet

BEGIN
{
	c = (char)65;
	s = "text";
	n = 1;
	printf("%d %d %d\n", sizeof (c), sizeof (n), sizeof (s) > 0);
	exit(0);
}
