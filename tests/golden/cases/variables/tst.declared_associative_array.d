/* SPDX-License-Identifier: MIT */
/* An associative array declared with an explicit key signature. */
#pragma D option quiet

int a[string, int];

BEGIN
{
	a["hello", 123] = 456;
	a["world", 1]++;
	a["world", 1] += 2;
	printf("%d %d %d\n", a["hello", 123], a["world", 1], a["hello", 1]);
	exit(0);
}
