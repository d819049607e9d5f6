/* SPDX-License-Identifier: MIT */
/* Strings are recorded in strsize bytes: at most strsize - 1 characters. */
/* @@runtest-opts: -x strsize=4 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", "abcdef");
	exit(0);
}
