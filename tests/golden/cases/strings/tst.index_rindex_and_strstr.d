/* SPDX-License-Identifier: MIT */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %s\n", index("hello", "l"), rindex("hello", "l"),
	    index("hello", "z"), strstr("hello", "ll"));
	exit(0);
}
