// SPDX-License-Identifier: MIT
// A USDT probe with a stapsdt note's most operands, 12 (STAP_PROBE12):
// wide:::twelve(base + 1, ..., base + 12), fired once per base 0..N-1.
// `dtrace -h` writes at most 10 arguments, so the site is placed with the
// header's own macros (usdt_shop.h) by hand.
//   usdt_wide N
#include "usdt_shop.h"

#include <stdlib.h>

// The operands' descriptions, "%n[_s1]@%[_a1] ..." (usdt_shop.h).
#define WIDE_OPS_LO _DT_USDT_OP(1) " " _DT_USDT_OP(2) " " _DT_USDT_OP(3) " " _DT_USDT_OP(4)
#define WIDE_OPS_MID _DT_USDT_OP(5) " " _DT_USDT_OP(6) " " _DT_USDT_OP(7) " " _DT_USDT_OP(8)
#define WIDE_OPS_HI _DT_USDT_OP(9) " " _DT_USDT_OP(10) " " _DT_USDT_OP(11) " " _DT_USDT_OP(12)

__attribute__((noinline)) static void twelve(long base)
{
	long _dt_a1 = base + 1, _dt_a2 = base + 2, _dt_a3 = base + 3, _dt_a4 = base + 4;
	long _dt_a5 = base + 5, _dt_a6 = base + 6, _dt_a7 = base + 7, _dt_a8 = base + 8;
	long _dt_a9 = base + 9, _dt_a10 = base + 10, _dt_a11 = base + 11, _dt_a12 = base + 12;
	__asm__ __volatile__(
		_DT_USDT_NOTE("wide", "twelve", "0", WIDE_OPS_LO " " WIDE_OPS_MID " " WIDE_OPS_HI)
		:
		: _DT_USDT_IN(1, _dt_a1), _DT_USDT_IN(2, _dt_a2), _DT_USDT_IN(3, _dt_a3),
		  _DT_USDT_IN(4, _dt_a4), _DT_USDT_IN(5, _dt_a5), _DT_USDT_IN(6, _dt_a6),
		  _DT_USDT_IN(7, _dt_a7), _DT_USDT_IN(8, _dt_a8), _DT_USDT_IN(9, _dt_a9),
		  _DT_USDT_IN(10, _dt_a10), _DT_USDT_IN(11, _dt_a11), _DT_USDT_IN(12, _dt_a12));
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	for (int i = 0; i < n; i++)
		twelve(100L * i);
	return 0;
}
