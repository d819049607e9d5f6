/* SPDX-License-Identifier: MIT */
/* Associative array elements may hold strings. */
#pragma D option quiet

BEGIN
{
	names[1] = "one";
	names[2] = "two";
	printf("%s %s [%s]\n", names[1], names[2], names[3]);
	exit(0);
}
