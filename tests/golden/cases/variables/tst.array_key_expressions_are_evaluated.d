/* SPDX-License-Identifier: MIT */
/* Keys are values: different expressions with equal values reach the same element. */
#pragma D option quiet

BEGIN
{
	k = "key";
	n = 5;
	a[k, n] = 42;
	printf("%d\n", a["key", 2 + 3]);
	a[strjoin("ke", "y"), n * 1] = 43;
	printf("%d\n", a[k, n]);
	exit(0);
}
