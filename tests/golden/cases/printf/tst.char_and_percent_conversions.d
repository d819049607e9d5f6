/* SPDX-License-Identifier: MIT */
/* %c prints a character, %% a percent sign. */
#pragma D option quiet

BEGIN
{
	printf("%c%c %d%%\n", 'o', 'k', 50);
	exit(0);
}
