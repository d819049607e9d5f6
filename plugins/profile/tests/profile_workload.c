// SPDX-License-Identifier: MIT
// What profile_args_host_test samples: a process that keeps one CPU busy,
// either in user mode (one arithmetic loop in dt_prof_spin) or in the
// kernel (reads of /dev/zero, which the kernel fills), until it has used
// the CPU time asked for. It then prints, on one line,
//
//   spin <address of dt_prof_spin> cpu_us <its CPU time in microseconds>
//
// so that the test can place the samples (dt_prof_spin's size comes from
// this file's ELF symbol table) and count them against the time the
// process really ran, whatever else the machine was doing.
//
// Usage: profile_workload user|kernel MILLISECONDS
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

// Some milliseconds' worth of a loop the compiler cannot drop; the clock
// is read outside it, so that nearly every user-mode sample lands here.
__attribute__((noinline)) double dt_prof_spin(double x, long n)
{
	for (long i = 0; i < n; i++)
		x = 0.5 * x + 1.0;
	return x;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	volatile double sink = 0;
	uint64_t until;
	int fd = -1;

	if (argc != 3 || (strcmp(argv[1], "user") != 0 && strcmp(argv[1], "kernel") != 0)) {
		fprintf(stderr, "usage: profile_workload user|kernel MILLISECONDS\n");
		return 2;
	}
	until = cpu_us() + strtoull(argv[2], NULL, 10) * 1000;
	if (argv[1][0] == 'k' && (fd = open("/dev/zero", O_RDONLY)) < 0) {
		perror("/dev/zero");
		return 1;
	}
	while (cpu_us() < until) {
		if (fd < 0)
			sink = dt_prof_spin(sink, 2000000);
		else if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return 1;
	}
	printf("spin %p cpu_us %llu\n", (void *)dt_prof_spin, (unsigned long long)cpu_us());
	return 0;
}
