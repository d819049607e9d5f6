/* SPDX-License-Identifier: MIT */

/*
 * The output type declares b, but the translator gives no expression for
 * it: using b is an error, naming the member.
 */
struct in {
	int x;
};

struct out {
	int a;
	int b;
};

translator struct out < struct in *p > {
	a = p->x;
};

BEGIN
{
	trace(xlate <struct out *> ((struct in *)0)->b);
}
