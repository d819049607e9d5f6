/* SPDX-License-Identifier: MIT */
/*
 * Function prototypes (with void, named, unnamed and variable argument
 * lists, function pointers) and extern declarations with or without a type
 * are accepted; D calls none of them.
 */
#pragma D option quiet

extern int none(void);
extern int *pointer(int, char *name);
extern int *(*fp)(void);
extern int **(**fpp)(long);
extern int old_style();
extern int varargs(int, ...);
extern int only_varargs(...);
extern implicit;
extern unsigned long counter;

BEGIN
{
	printf("declared\n");
	exit(0);
}
