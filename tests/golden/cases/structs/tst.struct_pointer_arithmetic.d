/* SPDX-License-Identifier: MIT */
/* Pointer arithmetic on struct pointers scales by the struct size. */
#pragma D option quiet

struct pair {
	int64_t a;
	int64_t b;
};

BEGIN
{
	p = (struct pair *)alloca(2 * sizeof (struct pair));
	q = p + 1;
	q->a = 3;
	p[1].b = 4;
	printf("%d %d %d %d\n", (uintptr_t)q - (uintptr_t)p, q - p, p[1].a, q->b);
	exit(0);
}
