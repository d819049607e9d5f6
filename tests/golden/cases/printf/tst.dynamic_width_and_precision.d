/* SPDX-License-Identifier: MIT */
/* * takes the width or precision from the arguments. */
#pragma D option quiet

BEGIN
{
	printf("[%*d][%-*d][%.*s]\n", 6, 7, 4, 8, 3, "abcdef");
	exit(0);
}
