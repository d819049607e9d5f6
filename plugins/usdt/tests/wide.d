/*
 * The provider of usdt_wide.c: a probe with a stapsdt note's most operands,
 * 12, turned into usdt_wide.h by `dtrace -h` at build time.
 */
provider wide {
	probe twelve(long, long, long, long, long, long, long, long, long, long, long, long);
};
