/* SPDX-License-Identifier: MIT */
/*
 * -x linkmode=dynamic: no symbol takes its value when compiling, each is
 * left to a relocation, which only -x knodefs permits for kernel symbols
 * (illumos dt_as_undef()). The offset counts the DIF object's
 * instructions from 1: the setx of the address is the first.
 */
/* @@runtest-opts: -x linkmode=dynamic */

BEGIN
{
	trace(&`vfs_read);
	exit(0);
}
