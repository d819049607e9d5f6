/* SPDX-License-Identifier: MIT */
/*
 * The DWARF ustack() tests' target, built -O2 -fomit-frame-pointer (as
 * Debian builds its programs): main -> dt_ustack_outer -> dt_ustack_mid ->
 * dt_ustack_leaf, which spins; none keeps a frame pointer, so only CFI
 * finds the callers.
 *
 *   ustack_target        prints "ready", then spins until killed
 *   ustack_target -1     one round, then exits 0
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

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-1") == 0) {
		dt_ustack_outer(1000);
		return 0;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		dt_ustack_outer(1000000);
}
