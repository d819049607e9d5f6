/* SPDX-License-Identifier: MIT */
/*
 * Drops are "drop" records in the stream: the kind, the count, the CPU.
 * Each BEGIN firing takes 16 bytes of the 64-byte buffer; the fifth is
 * dropped.
 */
/* @@runtest-opts: -q -x bufsize=64 */
BEGIN
{
	printf("%d\n", 1);
}

BEGIN
{
	printf("%d\n", 2);
}

BEGIN
{
	printf("%d\n", 3);
}

BEGIN
{
	printf("%d\n", 4);
}

BEGIN
{
	printf("%d\n", 5);
}

tick-10ms
{
	exit(0);
}
