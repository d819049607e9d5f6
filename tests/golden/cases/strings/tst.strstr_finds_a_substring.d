/* SPDX-License-Identifier: MIT */
/* strstr returns the string from the first occurrence of a substring. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", strstr("foobarbaz", "ba"), strstr("foo", "x"));
	exit(0);
}
