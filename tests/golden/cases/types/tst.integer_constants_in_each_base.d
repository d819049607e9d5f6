/* SPDX-License-Identifier: MIT */
/* Decimal, octal (leading 0) and hexadecimal (0x) integer constants. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", 123, 0173, 0x7b, 0X7B);
	printf("%d %d\n", 100000000000, 0xffffffffff);
	exit(0);
}
