/* SPDX-License-Identifier: MIT */
/* A global scalar array: sizeof, zero fill, element assignment. */
#pragma D option quiet

int a[5];

BEGIN
{
	a[0] = 10;
	a[4] = 40;
	printf("%d %d %d %d\n", sizeof (a), a[0], a[1], a[4]);
	exit(0);
}
