/* SPDX-License-Identifier: MIT */
int x;
char x;

BEGIN
{
	exit(0);
}
