/* SPDX-License-Identifier: MIT */
/* -x quiet is the same as -q. */
/* @@runtest-opts: -x quiet */

BEGIN
{
	printf("quiet\n");
	exit(0);
}
