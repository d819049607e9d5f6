/* SPDX-License-Identifier: MIT */
/* The u, l and ll suffixes choose the type of an integer constant. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof (1), sizeof (1u), sizeof (1l),
	    sizeof (1ul), sizeof (1ll));
	exit(0);
}
