/* SPDX-License-Identifier: MIT */
/*
 * The DWARF ustack() tests' target, built -O2 -fomit-frame-pointer (as
 * Debian builds its programs): main -> dt_ustack_outer -> dt_ustack_mid ->
 * dt_ustack_leaf, which spins; none keeps a frame pointer, so only CFI
 * finds the callers.
 *
 *   ustack_target        prints "ready", then spins until killed
 *   ustack_target -1     one round, then exits 0
 *   ustack_target -r     main -> dt_ustack_recurse x 31 -> dt_ustack_leaf,
 *                        spinning: about 3 KiB of stack below main, more
 *                        than an aggregation key once copied (1536 bytes)
 */
#include <stdio.h>
#include <string.h>

#define TARGET_FN __attribute__((noinline, noclone, used))

volatile unsigned long dt_ustack_sink;

TARGET_FN void dt_ustack_leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		dt_ustack_sink += i * i;
}

/* The work after each call keeps it a call (no tail call: a jmp would
 * leave no return address to unwind). */
TARGET_FN void dt_ustack_mid(unsigned long n)
{
	dt_ustack_leaf(n);
	dt_ustack_sink++;
}

TARGET_FN void dt_ustack_outer(unsigned long n)
{
	dt_ustack_mid(n);
	dt_ustack_sink++;
}

/* 31 frames of about 96 bytes each (the volatile array keeps them). */
TARGET_FN void dt_ustack_recurse(unsigned long depth, unsigned long n)
{
	volatile unsigned long pad[8];

	pad[0] = depth;
	if (depth)
		dt_ustack_recurse(depth - 1, n);
	else
		dt_ustack_leaf(n);
	dt_ustack_sink += pad[0];
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-r") == 0) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			dt_ustack_recurse(30, 1000000);
	}
	if (argc > 1 && strcmp(argv[1], "-1") == 0) {
		dt_ustack_outer(1000);
		return 0;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		dt_ustack_outer(1000000);
}
