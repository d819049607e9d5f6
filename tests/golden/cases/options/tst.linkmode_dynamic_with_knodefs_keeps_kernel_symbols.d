/* SPDX-License-Identifier: MIT */
/*
 * -x knodefs permits kernel symbols that the link mode leaves to a
 * relocation: the program compiles and keeps the address found when
 * compiling (nothing relocates kernel symbols later).
 */
/* @@runtest-opts: -x linkmode=dynamic -x knodefs */
#pragma D option quiet

BEGIN
{
	printf("%a\n", &`vfs_read);
	exit(0);
}
