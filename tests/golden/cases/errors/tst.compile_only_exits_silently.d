/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -e */
/* -e: exit after compiling; a program using declarations, inlines, a
   multi-probe clause, predicates, aggregations and printa compiles silently. */
#pragma D option quiet

struct s {
	int a;
	char b[8];
};

inline int TWO = 2;

dtrace:::END,
BEGIN
/pid != 0 && TWO == 2/
{
	self->ts = timestamp;
	@counts[execname, probefunc] = count();
	@lat = quantize(TWO * 100);
}

END
{
	printa("%-16s %-16s %@d\n", @counts);
	exit(0);
}
