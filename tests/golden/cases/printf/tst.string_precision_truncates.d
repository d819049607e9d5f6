/* SPDX-License-Identifier: MIT */
/* %.Ns prints at most N characters. */
#pragma D option quiet

BEGIN
{
	printf("[%.3s][%8.2s][%-8.2s]\n", "abcdef", "abcdef", "abcdef");
	exit(0);
}
