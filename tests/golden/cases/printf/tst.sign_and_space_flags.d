/* SPDX-License-Identifier: MIT */
/* + forces a sign, space leaves room for one. */
#pragma D option quiet

BEGIN
{
	printf("[%+d][% d][%+d][% d]\n", 5, 5, -5, -5);
	exit(0);
}
