/* SPDX-License-Identifier: MIT */
int y;
int x[y];

BEGIN
{
	exit(0);
}
