/* SPDX-License-Identifier: MIT */
/*
 * system() is an item naming the command; the command's own output goes
 * to stderr, so that stdout stays JSON Lines.
 */
/* @@runtest-opts: -q -w */
BEGIN
{
	system("echo %s", "from the shell");
	exit(0);
}
