/* SPDX-License-Identifier: MIT */
/*
 * Associative array elements may hold strings; an element never assigned
 * is NULL.
 */
#pragma D option quiet

BEGIN
{
	names[1] = "one";
	names[2] = "two";
	printf("%s %s %d\n", names[1], names[2], names[3] == NULL);
	exit(0);
}
