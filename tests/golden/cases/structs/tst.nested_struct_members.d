/* SPDX-License-Identifier: MIT */
/* Members of a struct nested inside another struct. */
#pragma D option quiet

struct inner {
	int a;
	int b;
};

struct outer {
	char tag;
	struct inner in;
	int last;
};

struct outer o;

BEGIN
{
	o.in.a = 1;
	o.in.b = 2;
	o.last = 3;
	printf("%d %d %d %d %d\n", o.in.a, o.in.b, o.last, sizeof (struct outer),
	    offsetof(struct outer, last));
	exit(0);
}
