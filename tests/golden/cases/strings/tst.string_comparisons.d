/* SPDX-License-Identifier: MIT */
/* Strings compare by content with the relational operators. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", "abc" < "abd", "abc" == "abc", "b" > "a", "a" != "a");
	exit(0);
}
