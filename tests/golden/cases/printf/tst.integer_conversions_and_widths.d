/* SPDX-License-Identifier: MIT */
/* printf() integer conversions, flags and widths, as C printf(3). */
#pragma D option quiet

BEGIN
{
	printf("%d|%i|%u|%x|%X|%o\n", 255, -3, 255, 255, 255, 8);
	printf("[%5d][%-5d][%05d][%+d]\n", 42, 42, 42, 42);
	printf("%#x %#o\n", 255, 8);
	printf("%lld\n", 1LL << 40);
	printf("%c%c 100%%\n", 'o', 'k');
	exit(0);
}
