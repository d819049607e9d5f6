// SPDX-License-Identifier: MIT
/*
 * copyout_target.c - what the bpf engine's copyout()/copyoutstr() tests
 * write into (dtrace -w -c): two buffers on the stack, each holding
 * "untouched", are handed to write(-1, a, 16) and write(-2, b, 16) (the
 * calls fail with EBADF without reading them; their entry probes see the
 * buffer as arg1), then printed as "a=<a> b=<b>".
 */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	char a[32], b[32];

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	strcpy(a, "untouched");
	strcpy(b, "untouched");
	(void)syscall(SYS_write, -1, a, 16);
	(void)syscall(SYS_write, -2, b, 16);
	printf("a=%s b=%s\n", a, b);
	return 0;
}
