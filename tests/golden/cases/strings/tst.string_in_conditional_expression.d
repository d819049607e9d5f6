/* SPDX-License-Identifier: MIT */
/* Strings can be the result of a ?: expression and be compared. */
#pragma D option quiet

BEGIN
{
	x = 3;
	s = x > 2 ? "many" : "few";
	printf("%s %d\n", s, s == "many");
	exit(0);
}
