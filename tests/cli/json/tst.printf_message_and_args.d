/* SPDX-License-Identifier: MIT */
/*
 * printf(): the formatted text as "message", its arguments as recorded
 * in "args"; a printf() without arguments has an empty "args". With -q a
 * firing that outputs nothing writes no record.
 */
/* @@runtest-opts: -q */
BEGIN
{
	printf("%s is %d (0x%x)\n", "answer", 42, 42);
	printf("no arguments\n");
}

BEGIN
{
	x = 1;
}

BEGIN
{
	exit(0);
}
