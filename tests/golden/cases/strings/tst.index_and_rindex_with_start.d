/* SPDX-License-Identifier: MIT */
/* index and rindex take an optional start position; -1 means not found. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", index("abcabc", "bc"), index("abcabc", "bc", 2),
	    rindex("abcabc", "bc"), index("abc", "x"));
	exit(0);
}
