/* SPDX-License-Identifier: MIT */
/* &*p is p, and a pointer to pointer dereferences twice. */
#pragma D option quiet

BEGIN
{
	p = (int *)alloca(sizeof (int));
	*p = 9;
	pp = (int **)alloca(sizeof (int *));
	*pp = p;
	printf("%d %d %d\n", **pp, &*p == p, *pp == p);
	exit(0);
}
