/* SPDX-License-Identifier: MIT */

/* Kernel symbols are looked up, never declared. */
int vmlinux`counter;

BEGIN
{
	exit(0);
}
