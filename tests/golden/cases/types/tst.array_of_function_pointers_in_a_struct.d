/* SPDX-License-Identifier: MIT */
/*
 * Function pointers as C declares them, (*name)() and arrays of them
 * (*name[N])(), are pointer-sized members of a struct.
 */
#pragma D option quiet

struct handlers {
	int count;
	int (*one)();
	int (*table[3])(int, char *);
	long tail;
};

BEGIN
{
	printf("%d %d %d %d\n", sizeof(struct handlers),
	    offsetof(struct handlers, one), offsetof(struct handlers, table),
	    offsetof(struct handlers, tail));
	exit(0);
}
