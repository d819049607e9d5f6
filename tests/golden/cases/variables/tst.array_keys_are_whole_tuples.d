/* SPDX-License-Identifier: MIT */
/* Tuples that differ in any element name different elements. */
#pragma D option quiet

BEGIN
{
	x[1, 2] = 12;
	x[2, 1] = 21;
	x[1, 1] = 11;
	printf("%d %d %d %d\n", x[1, 2], x[2, 1], x[1, 1], x[2, 2]);
	y["a", "b"] = 1;
	y["ab", ""] = 2;
	printf("%d %d\n", y["a", "b"], y["ab", ""]);
	exit(0);
}
