/* SPDX-License-Identifier: MIT */
/*
 * xlate<struct T *>(x) stored in a pointer variable (as `c = curcpu;`):
 * the translated object is made in scratch memory, every member the
 * translator defines filled in and the rest zero, and the variable points
 * at it for the rest of the clause.
 */
#pragma D option quiet

struct rect_in {
	int w;
	int h;
};

struct rect_out {
	int area;
	int perimeter;
	int unset;
};

translator struct rect_out < struct rect_in r >
{
	area = r.w * r.h;
	perimeter = 2 * (r.w + r.h);
};

struct rect_in rin;
struct rect_out *rp;

BEGIN
{
	rin.w = 6;
	rin.h = 7;
	rp = xlate<struct rect_out *>(rin);
	this->q = xlate<struct rect_out *>(rin);
	printf("area=%d perimeter=%d unset=%d\n", rp->area, rp->perimeter, rp->unset);
	printf("clause-local: area=%d\n", this->q->area);
	exit(0);
}
