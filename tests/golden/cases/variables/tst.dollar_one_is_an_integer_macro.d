/* SPDX-License-Identifier: MIT */
/* $1 stands for the first operand as an integer constant. */
#pragma D option quiet

/* @@runtest-args: 42 7 */
BEGIN
{
	printf("%d %d %d\n", $1 + 1, $1 * $2, sizeof ($1));
	exit(0);
}
