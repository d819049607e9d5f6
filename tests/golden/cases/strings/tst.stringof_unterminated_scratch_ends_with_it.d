/* SPDX-License-Identifier: MIT */
/*
 * A string read from alloca()'d memory that holds no NUL (bcopy, copyinto
 * fill it byte for byte) ends where the allocation ends.
 */
#pragma D option quiet

BEGIN
{
	this->p = (char *)alloca(5);
	bcopy("abcdefgh", this->p, 5);
	printf("'%s' %d\n", stringof(this->p), this->p[4] == 'e');
	exit(0);
}
