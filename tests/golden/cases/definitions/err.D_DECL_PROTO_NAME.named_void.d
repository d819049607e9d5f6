/* SPDX-License-Identifier: MIT */
int f(void nothing);

BEGIN
{
	exit(0);
}
