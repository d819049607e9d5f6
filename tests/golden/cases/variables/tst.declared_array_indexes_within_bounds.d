/* SPDX-License-Identifier: MIT */
/* Constant indexes inside a declared array's bounds are fine, the last included. */
#pragma D option quiet
int a[4];

BEGIN
{
	a[0] = 10;
	a[3] = 13;
	printf("%d %d %d\n", a[0], a[1], a[3]);
	exit(0);
}
