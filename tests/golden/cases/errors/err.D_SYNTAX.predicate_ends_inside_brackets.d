/* SPDX-License-Identifier: MIT */
int a[4];

BEGIN
/a[1/
{
	exit(0);
}
