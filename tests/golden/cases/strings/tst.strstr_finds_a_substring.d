/* SPDX-License-Identifier: MIT */
/*
 * strstr returns the string from the first occurrence of a substring, and
 * NULL when there is none.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s] %d\n", strstr("foobarbaz", "ba"), strstr("foo", "x") == NULL);
	exit(0);
}
