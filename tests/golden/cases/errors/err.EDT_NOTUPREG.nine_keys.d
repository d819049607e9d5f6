/* SPDX-License-Identifier: MIT */
/* An associative array key is at most eight values (DIF's tuple registers). */
BEGIN
{
	a[1, 2, 3, 4, 5, 6, 7, 8, 9] = 0;
	exit(0);
}
