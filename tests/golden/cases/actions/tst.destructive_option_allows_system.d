/* SPDX-License-Identifier: MIT */
/* #pragma D option destructive is -w. */
#pragma D option destructive
#pragma D option quiet

BEGIN
{
	system("echo run");
	exit(0);
}
