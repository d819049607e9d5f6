/* SPDX-License-Identifier: MIT */
#pragma D option quiet

BEGIN
{
	x = 10;
}

BEGIN
{
	x += 5;
}

BEGIN
{
	printf("%d\n", x);
	exit(0);
}
