// SPDX-License-Identifier: MIT
// A USDT probe with a stapsdt note's most operands, 12 (STAP_PROBE12), from
// a `dtrace -h` header (wide.d): wide:::twelve(base + 1, ..., base + 12),
// fired once per base 0..N-1.
//   usdt_wide N
#include "usdt_wide.h"

#include <stdlib.h>

__attribute__((noinline)) static void twelve(long base)
{
	WIDE_TWELVE(base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7, base + 8,
		    base + 9, base + 10, base + 11, base + 12);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	for (int i = 0; i < n; i++)
		twelve(100L * i);
	return 0;
}
