/* SPDX-License-Identifier: MIT */
BEGIN
{
	a[1] = 1;
	trace(a);
	exit(0);
}
