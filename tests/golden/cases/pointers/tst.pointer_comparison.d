/* SPDX-License-Identifier: MIT */
/* Pointers of the same type compare by address. */
#pragma D option quiet

BEGIN
{
	p = (int *)0x1000;
	q = p + 1;
	printf("%d %d %d %d\n", p < q, p == q, q > p, p != q);
	exit(0);
}
