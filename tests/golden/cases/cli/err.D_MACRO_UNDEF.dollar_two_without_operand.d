/* SPDX-License-Identifier: MIT */
/* $2 with one operand given is an error at compile time. */
/* @@runtest-opts: -q */
/* @@runtest-args: 1 */
BEGIN
{
	printf("%d\n", $2);
	exit(0);
}
