/* SPDX-License-Identifier: MIT */
/* strtok keeps its position between calls in one clause. */
#pragma D option quiet

BEGIN
{
	s = "/usr/lib/dtrace";
	a = strtok(s, "/");
	b = strtok(NULL, "/");
	c = strtok(NULL, "/");
	printf("%s %s %s\n", a, b, c);
	exit(0);
}
