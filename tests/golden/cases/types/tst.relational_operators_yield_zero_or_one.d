/* SPDX-License-Identifier: MIT */
/* Relational operators evaluate to the integer 1 (true) or 0 (false). */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d %d\n", 1 < 2, 2 <= 2, 3 > 4, 3 >= 4, 1 == 1,
	    1 != 1);
	exit(0);
}
