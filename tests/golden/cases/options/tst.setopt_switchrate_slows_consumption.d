/* SPDX-License-Identifier: MIT */
/*
 * switchrate is a dynamic option: setopt() changes how often the consumer
 * takes the buffers (illumos dt_options.c). printa() prints the
 * aggregation as the consumer has it when it takes the record: the record
 * of the second tick is taken within 10 ms, when @n is 2; after setopt()
 * asks for 10 seconds, the records of the third and fourth ticks wait
 * for the end of tracing, when @n is 5.
 */
#pragma D option quiet
#pragma D option switchrate=10ms
#pragma D option aggrate=1ms
#pragma D option statusrate=10ms

tick-100ms
{
	@n = count();
	i++;
}

tick-100ms
/i == 2/
{
	printa("%@d\n", @n);
	setopt("switchrate", "10sec");
}

tick-100ms
/i == 3 || i == 4/
{
	printa("%@d\n", @n);
}

tick-100ms
/i == 5/
{
	exit(0);
}
