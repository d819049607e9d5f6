/* SPDX-License-Identifier: MIT */
/* Integer constant expressions are folded: a zero divisor is a compile error. */
BEGIN
{
	x = 10 / (3 - 3);
	exit(0);
}
