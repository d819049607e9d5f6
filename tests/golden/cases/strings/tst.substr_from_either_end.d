/* SPDX-License-Identifier: MIT */
/* substr(s, i[, n]): a negative index counts from the end. */
#pragma D option quiet

BEGIN
{
	printf("%s|%s|%s\n", substr("hello world", 6), substr("hello", 1, 3),
	    substr("hello", -3));
	exit(0);
}
