/* SPDX-License-Identifier: MIT */
/* A declared global reads zero (or the empty string) before it is assigned. */
#pragma D option quiet

int x;
string s;
int64_t big;

BEGIN
{
	printf("%d [%s] %d\n", x, s, big);
	x = 123;
	printf("%d\n", x);
	exit(0);
}
