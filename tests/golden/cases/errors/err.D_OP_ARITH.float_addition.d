/* SPDX-License-Identifier: MIT */
/* D has no floating-point arithmetic: + needs integer operands. */
double d;

BEGIN
{
	trace(d + 1);
}
