// SPDX-License-Identifier: MIT
//
// ustk - the target of kmod-robust-guest.sh's ustack() checks, built
// with frame pointers: main -> f1 -> f2 -> f3 -> getppid() three times,
// then a sleep, so that dtrace still finds the process to name its frames.
#include <unistd.h>

__attribute__((noinline)) void f3(void)
{
	for (int i = 0; i < 3; i++)
		(void)getppid();
	sleep(3);
}

__attribute__((noinline)) void f2(void)
{
	f3();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void f1(void)
{
	f2();
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	f1();
	return 0;
}
