/* SPDX-License-Identifier: MIT */
/* A tuple key prints each member in its own default width. */
#pragma D option quiet

BEGIN
{
	@["abc", 7] = count();
	exit(0);
}
