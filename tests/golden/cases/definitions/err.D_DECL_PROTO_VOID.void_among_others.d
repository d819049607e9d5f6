/* SPDX-License-Identifier: MIT */
int f(int, void);

BEGIN
{
	exit(0);
}
