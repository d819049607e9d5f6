// SPDX-License-Identifier: MIT
// The usdt tests' target: fires shop:::order-placed N times with known
// arguments (i, a name, -i * 10^9, (short)-i), then shop:::closed, and
// says on stderr how often the probe's is-enabled test was true.
//   usdt_target N        at once
//   usdt_target N wait   after a line on standard input (so that a tracer
//                        can find the running process first)
#include "usdt_shop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const k_names[] = {"apple", "pear", "plum"};

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	if (argc > 2 && strcmp(argv[2], "wait") == 0) {
		char c;
		if (read(0, &c, 1) < 0)
			return 1;
	}
	// Touch the strings first: a probe reads them with the page fault
	// handler off (bpf), so a page never touched reads as a bad address.
	unsigned sum = 0;
	for (int i = 0; i < 3; i++)
		sum += *(const volatile char *)k_names[i];
	if (sum == 0)
		return 1;
	int enabled = 0;
	for (int i = 0; i < n; i++) {
		if (SHOP_ORDER_PLACED_ENABLED())
			enabled++;
		SHOP_ORDER_PLACED(i, k_names[i % 3], (long)-i * 1000000000L, (short)-i);
	}
	SHOP_CLOSED();
	fprintf(stderr, "enabled %d of %d\n", enabled, n);
	return 0;
}
