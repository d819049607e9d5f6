/* SPDX-License-Identifier: MIT */
/* A struct tag may be scoped by the D module: struct D`pair is struct pair. */
#pragma D option quiet

struct pair {
	long first;
	short second;
};

BEGIN
{
	printf("%d %d\n", offsetof(struct D`pair, second), sizeof (struct D`pair));
	exit(0);
}
