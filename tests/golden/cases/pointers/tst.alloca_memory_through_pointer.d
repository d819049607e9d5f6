/* SPDX-License-Identifier: MIT */
/* Scratch memory from alloca can be written and read through a pointer. */
#pragma D option quiet

BEGIN
{
	p = (int *)alloca(4 * sizeof (int));
	p[0] = 5;
	p[3] = 8;
	*(p + 1) = 6;
	printf("%d %d %d\n", p[0], p[1], p[3]);
	exit(0);
}
