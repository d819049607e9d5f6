/* SPDX-License-Identifier: MIT */
/*
 * A typedef declared in the program belongs to the D module: D`name
 * names it in a cast and in sizeof, as D`tag does for a struct tag.
 */
#pragma D option quiet

typedef struct pair {
	uint32_t lo;
	uint32_t hi;
} pair_t;

pair_t *p;

BEGIN
{
	p = (D`pair_t *)alloca(sizeof(D`pair_t));
	p->lo = 7;
	p->hi = 9;
	printf("%d %d %d\n", sizeof(D`pair_t), p->lo, p->hi);
	exit(0);
}
