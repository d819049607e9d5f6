/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = (char int)1;
	exit(0);
}
