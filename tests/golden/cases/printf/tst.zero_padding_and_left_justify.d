/* SPDX-License-Identifier: MIT */
/* 0 pads with zeros, - justifies left and wins over 0. */
#pragma D option quiet

BEGIN
{
	printf("[%05d][%-5d][%-05d][%5s][%-5s]\n", 42, 42, 42, "ab", "ab");
	exit(0);
}
