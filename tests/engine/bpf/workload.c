// SPDX-License-Identifier: MIT
/*
 * workload.c - what the bpf engine's end-to-end tests trace (dtrace -c):
 *
 *   dt_bpf_workload getppid N     N getppid() system calls
 *   dt_bpf_workload open PATH     openat(PATH), then close
 *   dt_bpf_workload spin MS       burn CPU for MS milliseconds
 *   dt_bpf_workload fork N        N children, each exiting at once, reaped
 *   dt_bpf_workload kill N        a child that sleeps, sent signal N, reaped
 *   dt_bpf_workload openfail N    N times: openat of DIR/dt-spec-missing-<i>
 *                                 (ENOENT; DIR from $DT_SPEC_DIR, else /tmp),
 *                                 then of /dev/null (succeeds), closed
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s getppid N | open PATH | spin MS | fork N | kill SIG | openfail N\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[1], "getppid") == 0) {
		long n = atol(argv[2]);
		for (long i = 0; i < n; i++)
			(void)syscall(SYS_getppid);
		return 0;
	}
	if (strcmp(argv[1], "open") == 0) {
		int fd = open(argv[2], O_RDONLY);
		if (fd >= 0)
			close(fd);
		return fd >= 0 ? 0 : 1;
	}
	if (strcmp(argv[1], "spin") == 0) {
		long long end = now_ms() + atol(argv[2]);
		volatile unsigned long x = 0;
		while (now_ms() < end)
			x++;
		return 0;
	}
	if (strcmp(argv[1], "fork") == 0) {
		long n = atol(argv[2]);
		for (long i = 0; i < n; i++) {
			pid_t c = fork();
			if (c == 0)
				_exit(0);
			if (c > 0)
				(void)waitpid(c, NULL, 0);
		}
		return 0;
	}
	if (strcmp(argv[1], "openfail") == 0) {
		const char *dir = getenv("DT_SPEC_DIR");
		long n = atol(argv[2]);
		char path[4096];
		for (long i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/dt-spec-missing-%ld", dir ? dir : "/tmp", i);
			if (open(path, O_RDONLY) >= 0)
				return 1;
			int fd = open("/dev/null", O_RDONLY);
			if (fd < 0)
				return 1;
			close(fd);
		}
		return 0;
	}
	if (strcmp(argv[1], "kill") == 0) {
		pid_t c = fork();
		if (c == 0) {
			for (;;)
				pause();
		}
		if (c < 0)
			return 1;
		(void)kill(c, atoi(argv[2]));
		(void)waitpid(c, NULL, 0);
		return 0;
	}
	return 2;
}
