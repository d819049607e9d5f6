/* SPDX-License-Identifier: MIT */
/* A string is not a scalar: it cannot be the condition of ?:. */
BEGIN
{
	x = "yes" ? 1 : 2;
	exit(0);
}
