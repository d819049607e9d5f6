/* SPDX-License-Identifier: MIT */
/* system() under -w runs the command; its output appears in order. */
/* @@runtest-opts: -w */
#pragma D option quiet

BEGIN
{
	printf("before\n");
	system("echo %s %d", "from-shell", 7);
	printf("after\n");
	exit(0);
}
