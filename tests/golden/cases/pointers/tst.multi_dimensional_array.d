/* SPDX-License-Identifier: MIT */
/* A multi-dimensional scalar array is an array of arrays. */
#pragma D option quiet

int x[3][5];

BEGIN
{
	x[1][2] = 7;
	x[2][4] = 9;
	printf("%d %d %d %d %d\n", sizeof (x), sizeof (x[0]), x[1][2], x[2][4],
	    x[0][0]);
	exit(0);
}
