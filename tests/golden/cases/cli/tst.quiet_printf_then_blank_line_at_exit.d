/* SPDX-License-Identifier: MIT */
/*
 * With -q only what the program prints appears; dtrace(1) ends its output
 * with a newline of its own (illumos dtrace.c main()).
 */
/* @@runtest-opts: -q */
BEGIN
{
	printf("hello, world\n");
	exit(0);
}
