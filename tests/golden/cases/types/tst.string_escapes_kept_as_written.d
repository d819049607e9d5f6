/* SPDX-License-Identifier: MIT */
/*
 * In a string constant, \" and \\ stand for themselves and the C escapes
 * (\n \t \0NN \xNN ...) for their characters; any other escaped character
 * keeps its backslash, as illumos' lexer keeps it.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", "a\"b\\c");
	printf("[%s]\n", "\x41\102\t|");
	printf("[%s]\n", "\?\'\q");
	exit(0);
}
