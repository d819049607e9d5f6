/* SPDX-License-Identifier: MIT */
/* Character arithmetic is done in int: 'a' + 1 is 98. */
#pragma D option quiet

BEGIN
{
	c = 'a';
	printf("%d %c %d\n", c + 1, c + 1, 'z' - 'a');
	exit(0);
}
