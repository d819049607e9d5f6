/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 10 % 0;
	exit(0);
}
