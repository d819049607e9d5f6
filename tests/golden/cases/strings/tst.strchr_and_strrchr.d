/* SPDX-License-Identifier: MIT */
/*
 * strchr and strrchr return the rest of the string from a character, and
 * NULL when the character is not there.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] %d\n", strchr("hello", 'l'), strrchr("hello", 'l'),
	    strchr("hello", 'z') == NULL);
	exit(0);
}
