/* SPDX-License-Identifier: MIT */
int a[-1];

BEGIN
{
	exit(0);
}
