/* SPDX-License-Identifier: MIT */
/*
 * Assigning xlate<struct T>(x) to a struct variable fills in every member
 * the translator defines; the members it leaves out are zero. A cast of
 * the input to its own type is allowed.
 */
#pragma D option quiet

struct point_in {
	int x;
	int y;
	char tag;
};

struct point_out {
	long sum;
	int y;
	char tag;
	int unused;
};

translator struct point_out < struct point_in p >
{
	sum = ((struct point_in)p).x + p.y;
	y = p.y;
	tag = p.tag;
};

struct point_in pin;
struct point_out pout;

BEGIN
{
	pin.x = 40;
	pin.y = 2;
	pin.tag = 'q';
	pout = xlate<struct point_out>(pin);
	printf("sum=%d y=%d tag=%c unused=%d\n", pout.sum, pout.y, pout.tag, pout.unused);
	printf("y via pointer: %d\n", xlate<struct point_out *>(pin)->y);
	exit(0);
}
