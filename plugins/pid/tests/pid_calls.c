/* SPDX-License-Identifier: MIT */
/*
 * The pid provider's run-time tests' target: it makes a known set of
 * calls, so that a test can check what dtrace counted against it.
 *
 *   pid_calls [N]    dt_pid_calls_square(i) i+1 times for each i < N
 *                    (default 4), dt_pid_calls_pair(i, 100 + i) once for
 *                    each i < N, getpid() 5 times; then it exits 0.
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
	return sink == 0 ? 1 : 0;
}
