/* SPDX-License-Identifier: MIT */
/*
 * -x linkmode=static: every symbol, the kernel's and the modules', takes
 * its value when the program is compiled.
 */
/* @@runtest-opts: -x linkmode=static */
#pragma D option quiet

BEGIN
{
	printf("%a\n", &vmlinux`vfs_read);
	exit(0);
}
