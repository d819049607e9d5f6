/* SPDX-License-Identifier: MIT */
/* <, <=, >, >=, == and != compare string contents (strcmp order). */
#pragma D option quiet

BEGIN
{
	a = "apple";
	b = "banana";
	printf("%d %d %d %d %d %d\n", a < b, a <= b, a > b, a >= b, a == b,
	    a != b);
	c = strjoin("app", "le");
	printf("%d %d %d\n", a == c, a <= c, a >= c);
	printf("%d %d\n", "abc" < "abcd", "B" < "a");
	exit(0);
}
