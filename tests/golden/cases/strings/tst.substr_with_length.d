/* SPDX-License-Identifier: MIT */
/* substr(s, index, length) and its boundary cases. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] [%s] [%s]\n", substr("abcdef", 0, 3), substr("abcdef", 2),
	    substr("abcdef", 4, 10), substr("abcdef", 10));
	exit(0);
}
