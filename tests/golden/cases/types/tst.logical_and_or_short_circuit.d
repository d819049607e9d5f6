/* SPDX-License-Identifier: MIT */
/* && and || do not evaluate their right operand when the left decides. */
#pragma D option quiet

BEGIN
{
	x = 0;
	y = 0 && (x = 1);
	z = 1 || (x = 2);
	printf("%d %d %d\n", x, y, z);
	exit(0);
}
