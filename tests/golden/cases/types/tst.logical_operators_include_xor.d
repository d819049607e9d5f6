/* SPDX-License-Identifier: MIT */
/* D's logical operators: && || ^^ and !. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", 1 && 0, 1 && 2, 0 || 0, 0 || 7);
	printf("%d %d %d\n", 1 ^^ 1, 1 ^^ 0, 0 ^^ 0);
	printf("%d %d\n", !5, !0);
	exit(0);
}
