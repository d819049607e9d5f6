/* SPDX-License-Identifier: MIT */
/* A join longer than a string can hold keeps its first strsize characters. */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	printf("[%s]\n", strjoin("abc", "defghijk"));
	printf("[%s]\n", strjoin("abcdefghij", "xyz"));
	printf("[%s]\n", strjoin("", "1234567890"));
	printf("[%s]\n", strjoin("abcd", "efg"));
	printf("%d\n", strlen(strjoin("abcdef", "ghijkl")));
	exit(0);
}
