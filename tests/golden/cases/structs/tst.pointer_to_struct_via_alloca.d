/* SPDX-License-Identifier: MIT */
/* A pointer to a struct in alloca'd memory: the -> operator. */
#pragma D option quiet

struct point {
	int x;
	int y;
};

BEGIN
{
	p = (struct point *)alloca(sizeof (struct point));
	p->x = 3;
	p->y = 4;
	printf("%d %d %d\n", p->x, p->y, (*p).x + (*p).y);
	exit(0);
}
