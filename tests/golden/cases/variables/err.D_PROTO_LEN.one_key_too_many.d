/* SPDX-License-Identifier: MIT */
BEGIN
{
	a[1, 2] = 1;
	a[1, 2, 3] = 2;
	exit(0);
}
