/* SPDX-License-Identifier: MIT */
/* print() of a scalar shows its value as its type prints. */
#pragma D option quiet

BEGIN
{
	print(42);
	printf("\n");
	print((char)65);
	printf("\n");
	exit(0);
}
