// SPDX-License-Identifier: MIT
// The fbt overhead benchmark's workload (bench/fbt-vm-bench.sh): N
// getppid(2) calls, a cheap system call whose kernel function
// (__task_pid_nr_ns, which getppid() calls once) the benchmark traces; prints the mean ns per call.
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
