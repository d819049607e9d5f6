/* SPDX-License-Identifier: MIT */
/* sizeof (string) is the strsize option. */
#pragma D option quiet

/* @@runtest-opts: -x strsize=100 */
BEGIN
{
	printf("%d\n", sizeof (string));
	exit(0);
}
