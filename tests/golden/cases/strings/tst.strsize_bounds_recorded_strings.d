/* SPDX-License-Identifier: MIT */
/* A recorded string keeps at most strsize characters. */
/* @@runtest-opts: -x strsize=4 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", "abcdef");
	exit(0);
}
