/* SPDX-License-Identifier: MIT */
/* Compound assignment and ++ work through pointers and members. */
#pragma D option quiet

struct c {
	int n;
};

BEGIN
{
	p = (int *)alloca(sizeof (int));
	*p = 5;
	*p += 10;
	(*p)++;
	s = (struct c *)alloca(sizeof (struct c));
	s->n = 1;
	s->n <<= 3;
	s->n--;
	printf("%d %d\n", *p, s->n);
	exit(0);
}
