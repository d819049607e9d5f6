/* SPDX-License-Identifier: MIT */
/* Keys are checked against the array's first use, and named as keys. */
BEGIN
{
	a[1, "one"] = 1;
	a[2, 2] = 2;
	exit(0);
}
