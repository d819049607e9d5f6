/* SPDX-License-Identifier: MIT */
/* A struct may contain an array member. */
#pragma D option quiet

struct buf {
	int len;
	char data[10];
};

BEGIN
{
	b = (struct buf *)alloca(sizeof (struct buf));
	b->len = 2;
	b->data[0] = 'h';
	b->data[1] = 'i';
	b->data[2] = 0;
	printf("%d %s %d\n", b->len, stringof(b->data), sizeof (struct buf));
	exit(0);
}
