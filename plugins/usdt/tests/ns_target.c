// SPDX-License-Identifier: MIT
// The container test's target (usdt_container_test.cc), run in its own pid
// and mount namespaces from a directory that is its root: it says how its
// namespace numbers it ("ns PID TID PPID" on standard output), waits for a
// line on standard input (so that a tracer can find and grab it first),
// then calls shop_visit() N times -- a function for the pid provider, each
// call firing shop:::order-placed -- and fires shop:::closed.
//   ns_target N
#define _GNU_SOURCE
#include "usdt_shop.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char k_name[] = "apple";

__attribute__((noinline, noclone)) int shop_visit(int i)
{
	SHOP_ORDER_PLACED(i, k_name, (long)i, (short)i);
	__asm__ volatile("" ::: "memory"); // keep the call
	return i;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	printf("ns %d %d %d\n", (int)getpid(), (int)gettid(), (int)getppid());
	fflush(stdout);
	char c;
	if (read(0, &c, 1) < 0)
		return 1;
	int sum = 0;
	for (int i = 0; i < n; i++)
		sum += shop_visit(i);
	SHOP_CLOSED();
	return sum == n * (n - 1) / 2 ? 0 : 1;
}
