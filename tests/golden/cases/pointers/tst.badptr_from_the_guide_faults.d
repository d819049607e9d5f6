/* SPDX-License-Identifier: MIT */
/* The guide's badptr.d: dereferencing NULL reports an invalid address. */
#pragma D option quiet

BEGIN
{
	x = (int *)NULL;
	y = *x;
	trace(y);
}

BEGIN
{
	exit(0);
}
