/* SPDX-License-Identifier: MIT */
this int x[int];

BEGIN
{
	exit(0);
}
