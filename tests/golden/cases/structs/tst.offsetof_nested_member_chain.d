/* SPDX-License-Identifier: MIT */
/* offsetof and sizeof of unions nested in structs. */
#pragma D option quiet

struct rec {
	char tag;
	union {
		int i;
		int64_t l;
	} u;
	char end;
};

BEGIN
{
	printf("%d %d %d\n", sizeof (struct rec), offsetof(struct rec, u),
	    offsetof(struct rec, end));
	exit(0);
}
