/* SPDX-License-Identifier: MIT */
/*
 * The consumer takes the aggregations every aggrate (illumos
 * dtrace_aggregate_snap()), which frees the aggregation buffer: aggsize
 * bounds what accrues between two snapshots, not the aggregation's size.
 * 300 bytes hold a few keys only; taken every 10 ms, twenty keys added
 * one every 20 ms all arrive, without an aggregation drop.
 */
#pragma D option quiet
#pragma D option aggsize=300
#pragma D option aggrate=10ms

tick-20ms
/n < 20/
{
	@a[n++] = sum(n);
}

tick-20ms
/n == 20/
{
	exit(0);
}

END
{
	printa("%d:%@d ", @a);
	printf("\n");
}
