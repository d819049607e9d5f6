/* SPDX-License-Identifier: MIT */
/*
 * Aggregations need an aggregation buffer of at least 8 bytes: aggsize=0
 * in a program that aggregates is refused when tracing starts.
 */
/* @@status: 1 */
#pragma D option aggsize=0

BEGIN
{
	@calls = count();
	exit(0);
}
