/* SPDX-License-Identifier: MIT */
/* A struct member that is itself a struct takes a whole struct: it is copied. */
#pragma D option quiet
struct coord {
	int x;
	int y;
};
struct coord q;
struct segment {
	struct coord from;
	struct coord to;
} s;

BEGIN
{
	q.x = 1;
	q.y = 2;
	s.to = q;
	q.x = 5;
	s.from = s.to;
	printf("%d %d %d %d %d\n", s.from.x, s.from.y, s.to.x, s.to.y, q.x);
	exit(0);
}
