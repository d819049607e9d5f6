/* SPDX-License-Identifier: MIT */
BEGIN
{
	x = 1 ? trace(1) : trace(2);
	exit(0);
}
