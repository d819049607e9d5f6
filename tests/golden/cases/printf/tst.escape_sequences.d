/* SPDX-License-Identifier: MIT */
/* String escapes: \t \\ \" and octal \101. */
#pragma D option quiet

BEGIN
{
	printf("a\tb\\c\"d\101\n");
	exit(0);
}
