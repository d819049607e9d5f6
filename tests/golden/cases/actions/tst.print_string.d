/* SPDX-License-Identifier: MIT */
/* print() of a string prints it in double quotes. */
#pragma D option quiet

BEGIN
{
	print("hello");
	printf("\n");
	exit(0);
}
