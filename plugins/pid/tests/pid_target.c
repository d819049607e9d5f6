/* SPDX-License-Identifier: MIT */
/*
 * The pid provider tests' target process. It calls a few functions that
 * the compiler must keep out of line (so they have symbols, sizes and
 * code of their own), mallocs so that libc is in use, prints "ready" and
 * then waits on standard input until EOF or a signal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__clang__)
#define TARGET_FN __attribute__((noinline, used))
#else
#define TARGET_FN __attribute__((noipa, used))
#endif

TARGET_FN int dt_pid_target_add(int a, int b)
{
	return a * 3 + b;
}

TARGET_FN long dt_pid_target_sum(const int *v, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += v[i] % 7 == 0 ? v[i] * 2 : v[i];
	return s;
}

TARGET_FN const char *dt_pid_target_classify(int x)
{
	switch (x % 5) {
	case 0: return "zero";
	case 1: return "one";
	case 2: return "two";
	case 3: return "three";
	default: return "many";
	}
}

int main(void)
{
	volatile int seed = 3;
	int *v = malloc(8 * sizeof(int));
	if (v == NULL)
		return 1;
	for (int i = 0; i < 8; i++)
		v[i] = dt_pid_target_add(i, seed);
	printf("ready %ld %s\n", dt_pid_target_sum(v, 8), dt_pid_target_classify(seed));
	fflush(stdout);
	free(v);
	char c;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
