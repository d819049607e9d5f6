/* SPDX-License-Identifier: MIT */
/* strchr and strrchr return the rest of the string from a character. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] [%s]\n", strchr("hello", 'l'), strrchr("hello", 'l'),
	    strchr("hello", 'z'));
	exit(0);
}
