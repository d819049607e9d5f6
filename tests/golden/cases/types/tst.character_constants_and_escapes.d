/* SPDX-License-Identifier: MIT */
/* Character constants, including escape sequences, are small integers. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d %d %d\n", 'A', '\n', '\t', '\0', '\101',
	    '\\', '\'');
	exit(0);
}
