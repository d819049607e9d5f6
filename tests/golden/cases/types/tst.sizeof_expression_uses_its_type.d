/* SPDX-License-Identifier: MIT */
/* sizeof applies to expressions as well as to type names. */
#pragma D option quiet

int i;
char c;
int64_t l;

BEGIN
{
	printf("%d %d %d %d\n", sizeof (i), sizeof (c), sizeof (l), sizeof i);
	exit(0);
}
