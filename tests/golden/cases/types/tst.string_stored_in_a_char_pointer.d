/* SPDX-License-Identifier: MIT */
/*
 * A string is compatible with char *: assigning one to a char * variable
 * stores its address, and indexing the pointer reads its characters.
 */
#pragma D option quiet

char *p;

BEGIN
{
	p = probename;
	printf("%c%c%c\n", p[0], p[1], p[2]);
	exit(0);
}
