/* SPDX-License-Identifier: MIT */
/* Enumerators count from zero, or continue from an explicit value. */
#pragma D option quiet

enum colors {
	RED,
	GREEN,
	BLUE
};

enum sizes {
	SMALL = 10,
	MEDIUM,
	LARGE = 100,
	HUGE
};

BEGIN
{
	printf("%d %d %d\n", RED, GREEN, BLUE);
	printf("%d %d %d %d\n", SMALL, MEDIUM, LARGE, HUGE);
	exit(0);
}
