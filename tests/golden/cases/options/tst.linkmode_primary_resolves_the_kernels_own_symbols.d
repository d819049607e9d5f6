/* SPDX-License-Identifier: MIT */
/*
 * -x linkmode=primary: the primary kernel's symbols (vmlinux) take their
 * value when the program is compiled; only a loadable module's would be
 * left to a relocation.
 */
/* @@runtest-opts: -x linkmode=primary */
#pragma D option quiet

BEGIN
{
	printf("%a\n", &`vfs_read);
	exit(0);
}
