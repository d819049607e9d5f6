/* SPDX-License-Identifier: MIT */
/* stringof of a string is the string itself. */
#pragma D option quiet

BEGIN
{
	s = "abc";
	printf("%s %d\n", stringof(s), stringof(s) == "abc");
	exit(0);
}
