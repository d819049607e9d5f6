/* SPDX-License-Identifier: MIT */
/*
 * -x linkmode=kernel, the default: every kernel symbol takes its value
 * when the program is compiled (illumos dt_as()), so &`vfs_read is the
 * function's address, which %a prints as its name.
 */
/* @@runtest-opts: -x linkmode=kernel */
#pragma D option quiet

BEGIN
{
	printf("%a\n", &`vfs_read);
	exit(0);
}
