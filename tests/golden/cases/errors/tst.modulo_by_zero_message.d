/* SPDX-License-Identifier: MIT */
/* Modulo by zero is a divide-by-zero fault as well. */
#pragma D option quiet

BEGIN
{
	x = 0;
	printf("%d\n", 10 % x);
}

BEGIN
{
	exit(0);
}
