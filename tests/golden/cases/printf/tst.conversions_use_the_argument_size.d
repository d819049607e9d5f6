/* SPDX-License-Identifier: MIT */
/*
 * An int argument is formatted in 32 bits (-1 is 4294967295 with %u and
 * ffffffff with %x), a long long in 64; a char cast truncates.
 */
#pragma D option quiet

BEGIN
{
	printf("%u %x %d %lld\n", -1, -1, (char)300, (long long)-1);
	printf("%s|%10.3s|\n", "", "abcdef");
	exit(0);
}
