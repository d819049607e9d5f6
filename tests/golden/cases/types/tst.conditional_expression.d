/* SPDX-License-Identifier: MIT */
/* The ?: operator selects one of two values, and may be nested. */
#pragma D option quiet

BEGIN
{
	x = 5;
	printf("%s %s\n", x > 3 ? "big" : "small", x > 10 ? "big" : "small");
	printf("%d\n", x < 0 ? -1 : x == 0 ? 0 : 1);
	printf("%c\n", x % 2 ? 'o' : 'e');
	exit(0);
}
