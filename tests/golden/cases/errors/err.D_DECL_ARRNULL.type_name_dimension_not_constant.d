/* SPDX-License-Identifier: MIT */
/* The dimension of an array type written in an expression must be a constant. */
int y;

BEGIN
{
	trace(sizeof (int [y]));
	exit(0);
}
