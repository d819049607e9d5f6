/* SPDX-License-Identifier: MIT */
/* Strings stored in globals, associative arrays and thread-locals are copies. */
#pragma D option quiet

BEGIN
{
	s = strjoin("a", "b");
	t[s] = strjoin(s, "c");
	self->u = t["ab"];
	s = "changed";
	printf("%s %s %s\n", s, t["ab"], self->u);
	exit(0);
}
