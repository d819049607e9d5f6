/* SPDX-License-Identifier: MIT */
/*
 * The pid provider's run-time tests' target: it makes a known set of
 * calls, so that a test can check what dtrace counted against it.
 *
 *   pid_calls [N]    dt_pid_calls_square(i) i+1 times for each i < N
 *                    (default 4), dt_pid_calls_pair(i, 100 + i) once for
 *                    each i < N, getpid() 5 times, dt_pid_calls_ten(0, 1,
 *                    ..., 9) once; then it exits 0.
 *   pid_calls -w     prints "ready", then for each byte it reads on
 *                    standard input calls dt_pid_calls_square(byte) once;
 *                    exits 0 at EOF.
 *
 * dt_pid_calls_square(x) returns x * x + 1; dt_pid_calls_pair(a, b)
 * returns a - b.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__clang__)
#define TARGET_FN __attribute__((noinline, used))
#else
#define TARGET_FN __attribute__((noipa, used))
#endif

TARGET_FN long dt_pid_calls_square(long x)
{
	return x * x + 1;
}

TARGET_FN long dt_pid_calls_pair(long a, long b)
{
	return a - b;
}

/* Ten arguments: the last four are passed on the stack (SysV AMD64). */
TARGET_FN long dt_pid_calls_ten(long a0, long a1, long a2, long a3, long a4, long a5, long a6,
				long a7, long a8, long a9)
{
	return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9;
}

TARGET_FN static int wait_mode(void)
{
	unsigned char c;
	printf("ready\n");
	fflush(stdout);
	while (read(0, &c, 1) == 1)
		dt_pid_calls_square(c);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-w") == 0)
		return wait_mode();
	long n = argc > 1 ? atol(argv[1]) : 4;
	volatile long sink = 0;
	for (long i = 0; i < n; i++)
		for (long j = 0; j <= i; j++)
			sink += dt_pid_calls_square(i);
	for (long i = 0; i < n; i++)
		sink += dt_pid_calls_pair(i, 100 + i);
	for (int i = 0; i < 5; i++)
		sink += getpid();
	sink += dt_pid_calls_ten(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
	return sink == 0 ? 1 : 0;
}
