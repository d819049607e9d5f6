/* SPDX-License-Identifier: MIT */
/* strjoin results can be assigned and joined again. */
#pragma D option quiet

BEGIN
{
	s = "a";
	s = strjoin(s, "b");
	s = strjoin(s, s);
	printf("%s %d\n", s, strlen(s));
	exit(0);
}
