/* SPDX-License-Identifier: MIT */
/* typedef of a pointer type behaves like the pointer type. */
#pragma D option quiet

typedef int *intp_t;

BEGIN
{
	p = (intp_t)alloca(2 * sizeof (int));
	p[1] = 11;
	printf("%d %d\n", sizeof (intp_t), p[1]);
	exit(0);
}
