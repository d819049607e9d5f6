/* SPDX-License-Identifier: MIT */
/* Scalar arrays may hold structs; members are reached by index. */
#pragma D option quiet

struct pt {
	int x;
	int y;
};

struct pt pts[3];

BEGIN
{
	pts[0].x = 1;
	pts[2].y = 5;
	printf("%d %d %d %d\n", sizeof (pts), pts[0].x, pts[2].y, pts[1].x);
	exit(0);
}
