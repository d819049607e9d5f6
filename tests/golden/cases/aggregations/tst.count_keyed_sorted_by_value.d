/* SPDX-License-Identifier: MIT */
/* Entries print in ascending order of value; int keys " %8d". */
#pragma D option quiet

BEGIN
{
	@[3] = count();
	@[3] = count();
	@[3] = count();
	@[1] = count();
	@[2] = count();
	@[2] = count();
	exit(0);
}
