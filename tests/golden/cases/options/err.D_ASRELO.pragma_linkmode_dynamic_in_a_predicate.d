/* SPDX-License-Identifier: MIT */
/*
 * The link mode set by a pragma applies as -x linkmode does; a kernel
 * symbol in a predicate is left to a relocation there too. Here the setx
 * of its address is the DIF object's eleventh instruction (0xb).
 */
#pragma D option linkmode=dynamic

BEGIN
/timestamp != 0 && &`vfs_read != 0/
{
	exit(0);
}
