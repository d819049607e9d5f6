/* SPDX-License-Identifier: MIT */
/* @@runtest-opts: -q */
/*
 * GCC's words are read as such only in the declarations of included C
 * headers (-C); in a D program they are ordinary identifiers.
 */
BEGIN
{
	__attribute__ = 5;
	__signed__ = __attribute__ + 1;
	printf("%d %d\n", __attribute__, __signed__);
	exit(0);
}
