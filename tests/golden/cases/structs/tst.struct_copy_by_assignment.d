/* SPDX-License-Identifier: MIT */
/* Assigning one struct to another copies all its members. */
#pragma D option quiet

struct pair {
	int a;
	int b;
};

struct pair x;
struct pair y;

BEGIN
{
	x.a = 1;
	x.b = 2;
	y = x;
	x.a = 9;
	printf("%d %d %d\n", y.a, y.b, x.a);
	exit(0);
}
