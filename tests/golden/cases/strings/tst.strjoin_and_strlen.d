/* SPDX-License-Identifier: MIT */
#pragma D option quiet

BEGIN
{
	s = strjoin("foo", "bar");
	printf("%s %d\n", s, strlen(s));
	exit(0);
}
