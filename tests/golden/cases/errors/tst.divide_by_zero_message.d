/* SPDX-License-Identifier: MIT */
/* Division by zero aborts the action with illumos' message. */
#pragma D option quiet

BEGIN
{
	x = 0;
	printf("%d\n", 10 / x);
}

BEGIN
{
	exit(0);
}
