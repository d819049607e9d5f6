/* SPDX-License-Identifier: MIT */
/*
 * Speculation buffers are made only for a program that speculates: without
 * speculate(), specsize=0 (like aggsize=0 without aggregations) is no
 * reason to refuse it.
 */
#pragma D option quiet
#pragma D option specsize=0
#pragma D option aggsize=0

BEGIN
{
	printf("ran\n");
	exit(0);
}
