/* SPDX-License-Identifier: MIT */
/* p++ advances a pointer by one element. */
#pragma D option quiet

BEGIN
{
	a = (int *)alloca(3 * sizeof (int));
	a[0] = 10; a[1] = 20; a[2] = 30;
	p = a;
	x = *p++;
	y = *p;
	p += 1;
	printf("%d %d %d %d\n", x, y, *p, p - a);
	exit(0);
}
