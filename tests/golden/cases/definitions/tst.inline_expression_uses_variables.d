/* SPDX-License-Identifier: MIT */
/* An inline may be an expression over variables, evaluated where used. */
#pragma D option quiet

int x;
inline int doubled = x * 2;

BEGIN
{
	x = 5;
	printf("%d\n", doubled);
	x = 7;
	printf("%d\n", doubled);
	exit(0);
}
