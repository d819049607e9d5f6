/* SPDX-License-Identifier: MIT */
/* ++, --, +=, -=, *=, /=, %=, <<=, |= on globals, as C. */
#pragma D option quiet

BEGIN
{
	x = 5;
	x++;
	++x;
	x--;
	x += 10;
	x -= 2;
	x *= 3;
	x /= 4;
	x %= 7;
	y = 1;
	y <<= 4;
	y |= 3;
	printf("%d %d\n", x, y);
	exit(0);
}
