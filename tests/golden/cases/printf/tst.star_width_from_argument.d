/* SPDX-License-Identifier: MIT */
/* * takes the width from an argument; a negative one left-justifies. */
#pragma D option quiet

BEGIN
{
	printf("[%*d][%*d][%-*s]\n", 5, 1, -5, 1, 4, "x");
	exit(0);
}
