/* SPDX-License-Identifier: MIT */
/* -x libdir=DIR reads the D libraries of DIR as -L DIR does. */
/* @@runtest-opts: -q -x libdir=libdir_answer */

BEGIN
{
	printf("%d\n", the_answer);
	exit(0);
}
