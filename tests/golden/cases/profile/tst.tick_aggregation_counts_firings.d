/* SPDX-License-Identifier: MIT */
/*
 * Each tick-N firing updates the aggregation once; printed at exit. The
 * firing in which exit() runs skips its later clauses (the state is draining,
 * as in illumos dtrace_probe()), so four firings are counted, not five.
 */
#pragma D option quiet

tick-5ms
/n++ == 4/
{
	exit(0);
}

tick-5ms
{
	@ = count();
}
