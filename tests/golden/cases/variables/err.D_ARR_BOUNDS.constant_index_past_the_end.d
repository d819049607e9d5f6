/* SPDX-License-Identifier: MIT */
int a[4];

BEGIN
{
	a[4] = 1;
	exit(0);
}
