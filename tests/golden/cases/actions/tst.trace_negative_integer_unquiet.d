/* SPDX-License-Identifier: MIT */
/* trace() of a negative 64-bit value is right-aligned in 16 columns. */

BEGIN
{
	trace(-12LL);
	exit(0);
}
