/* SPDX-License-Identifier: MIT */
/* An array name is the address of its first element; p[i] equals *(p + i). */
#pragma D option quiet

int a[4];

BEGIN
{
	a[0] = 1; a[1] = 2; a[2] = 3; a[3] = 4;
	p = &a[0];
	printf("%d %d %d %d\n", *p, p[1], *(p + 2), a[3]);
	printf("%d\n", &a[3] - &a[1]);
	exit(0);
}
