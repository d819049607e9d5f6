/* SPDX-License-Identifier: MIT */
/* Assigning a string variable copies the string. */
#pragma D option quiet

BEGIN
{
	s = "abc";
	t = s;
	s = "xyz";
	printf("%s %s\n", s, t);
	exit(0);
}
